import type { LoanSummary } from '@customer-core/contracts';
import { formatCalendarDate, formatMoney, lenderToday } from './loan-format';

/**
 * What a loan card and the loan's page say of the next payment: amount and due date, or none. A date
 * that has passed is said so ("was due"), never as one to come.
 */
export function NextPayment({ payment }: { payment: LoanSummary['nextPayment'] }) {
  if (!payment) return <>None scheduled</>;
  const passed = payment.dueOn < lenderToday();
  return (
    <>
      {formatMoney(payment.amountCents)}
      <span className="loan-facts__sub" data-passed={passed || undefined}>
        {passed ? 'was due' : 'due'} <time dateTime={payment.dueOn}>{formatCalendarDate(payment.dueOn)}</time>
      </span>
    </>
  );
}
