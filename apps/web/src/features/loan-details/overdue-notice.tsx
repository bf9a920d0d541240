import type { Overdue } from '@customer-core/contracts';
import { SupportPhone } from '../../components/support-phone';
import { getLenderBranding } from '../../config/portal-config-meta';
import { daysLate, formatCalendarDate, formatMoney } from '../../loans/loan-format';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * A past-due loan: how much, how late, what happens next and whom to call. A loan the lender marks past
 * due before its missed payments are on record (`overdue` null) says so without amounts.
 */
export function OverdueNotice({ overdue }: { overdue: Overdue | null }) {
  const hasPhone = getLenderBranding().supportPhone !== null;
  return (
    <section className="overdue-notice" aria-labelledby="overdue-title" data-testid="overdue-notice">
      <h2 id="overdue-title">
        {overdue ? `${formatMoney(overdue.amountCents)} is past due` : 'This loan is past due'}
      </h2>
      {overdue && (
        <p data-testid="overdue-summary">
          {count(overdue.instalments, 'payment', 'payments')} missed since{' '}
          <time dateTime={overdue.since}>{formatCalendarDate(overdue.since)}</time>:{' '}
          <strong data-testid="overdue-days">{daysLate(overdue.daysLate)}</strong>.
        </p>
      )}
      <p>
        Pay the amount past due as soon as you can to bring your loan up to date. Until then, late fees may
        apply under your loan agreement. If you can’t pay it all now, talk to us before your next payment is
        due: we can go through your options.
      </p>
      <p className="overdue-notice__contact">
        {hasPhone ? (
          <>
            Call us at <SupportPhone />.
          </>
        ) : (
          'Contact us to talk it through.'
        )}
      </p>
    </section>
  );
}
