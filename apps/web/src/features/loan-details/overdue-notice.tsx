import type { Overdue } from '@customer-core/contracts';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { SupportPhone } from '../../components/support-phone';
import { getLenderBranding } from '../../config/portal-config-meta';
import { daysLate, formatCalendarDate, formatMoney } from '../../loans/loan-format';

/**
 * A past-due loan: how much, how late, what happens next and whom to call. A loan the lender marks past
 * due before its missed payments are on record (`overdue` null) says so without amounts.
 */
export function OverdueNotice({ overdue }: { overdue: Overdue | null }) {
  const { i18n } = useLingui();
  const amount = overdue && formatMoney(overdue.amountCents, i18n.locale);
  const hasPhone = getLenderBranding().supportPhone !== null;
  return (
    <section className="overdue-notice" aria-labelledby="overdue-title" data-testid="overdue-notice">
      <h2 id="overdue-title">
        {amount ? <Trans>{amount} is past due</Trans> : <Trans>This loan is past due</Trans>}
      </h2>
      {overdue && <MissedPayments overdue={overdue} />}
      <p>
        <Trans>
          Pay the amount past due as soon as you can to bring your loan up to date. Until then, late fees may
          apply under your loan agreement. If you can’t pay it all now, talk to us before your next payment is
          due: we can go through your options.
        </Trans>
      </p>
      <p className="overdue-notice__contact">
        {hasPhone ? (
          <Trans>
            Call us at <SupportPhone />.
          </Trans>
        ) : (
          <Trans>Contact us to talk it through.</Trans>
        )}
      </p>
    </section>
  );
}

/** "2 payments missed since Jun 1, 2026: 17 days late." */
function MissedPayments({ overdue }: { overdue: Overdue }) {
  const { i18n } = useLingui();
  const { instalments } = overdue;
  const since = formatCalendarDate(overdue.since, i18n.locale);
  const late = daysLate(overdue.daysLate, i18n);
  return (
    <p data-testid="overdue-summary">
      <Trans>
        <Plural value={instalments} one="# payment" other="# payments" /> missed since{' '}
        <time dateTime={overdue.since}>{since}</time>: <strong data-testid="overdue-days">{late}</strong>.
      </Trans>
    </p>
  );
}
