import type { LoanSummary } from '@customer-core/contracts';
import { formatCalendarDate, formatMoney } from './loan-format';

/** What a loan card and the loan's page say of the next payment: amount and due date, or none. */
export function NextPayment({ payment }: { payment: LoanSummary['nextPayment'] }) {
  if (!payment) return <>None scheduled</>;
  return (
    <>
      {formatMoney(payment.amountCents)}
      <span className="loan-facts__sub">
        due <time dateTime={payment.dueOn}>{formatCalendarDate(payment.dueOn)}</time>
      </span>
    </>
  );
}
