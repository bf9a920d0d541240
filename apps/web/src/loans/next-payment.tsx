import type { LoanSummary } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { formatCalendarDate, formatMoney, lenderToday } from './loan-format';

/**
 * What a loan card and the loan's page say of the next payment: amount and due date, or none. A date
 * that has passed is said so ("was due"), never as one to come.
 */
export function NextPayment({ payment }: { payment: LoanSummary['nextPayment'] }) {
  const { i18n } = useLingui();
  if (!payment) return <Trans>None scheduled</Trans>;
  const passed = payment.dueOn < lenderToday();
  const dueOn = formatCalendarDate(payment.dueOn, i18n.locale);
  return (
    <>
      {formatMoney(payment.amountCents, i18n.locale)}
      <span className="loan-facts__sub" data-passed={passed || undefined}>
        {passed ? (
          <Trans>
            was due <time dateTime={payment.dueOn}>{dueOn}</time>
          </Trans>
        ) : (
          <Trans>
            due <time dateTime={payment.dueOn}>{dueOn}</time>
          </Trans>
        )}
      </span>
    </>
  );
}
