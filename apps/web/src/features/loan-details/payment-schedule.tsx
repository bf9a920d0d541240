import type { Instalment } from '@customer-core/contracts';
import { formatCalendarDate, formatMoney } from '../../loans/loan-format';

const STATE_LABELS: Record<Instalment['state'], string> = {
  paid: 'Paid',
  past_due: 'Past due',
  upcoming: 'Upcoming',
};

/**
 * The loan's instalments, oldest first: what was due, when, and whether it was paid. With none on
 * record, a next payment the page shows above is not denied.
 */
export function PaymentSchedule({
  instalments,
  hasNextPayment,
}: {
  instalments: Instalment[];
  hasNextPayment: boolean;
}) {
  if (instalments.length === 0)
    return (
      <p className="payment-schedule__empty">
        {hasNextPayment
          ? 'Your full payment schedule isn’t here yet. Your next payment is shown above.'
          : 'No payments are scheduled for this loan.'}
      </p>
    );
  return (
    <table className="payment-schedule" data-testid="payment-schedule">
      <thead>
        <tr>
          <th scope="col">Due</th>
          <th scope="col" className="payment-schedule__amount">
            Amount
          </th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {instalments.map((instalment) => (
          <tr key={instalment.dueOn} data-state={instalment.state} data-testid="instalment">
            <td>
              <time dateTime={instalment.dueOn}>{formatCalendarDate(instalment.dueOn)}</time>
            </td>
            <td className="payment-schedule__amount">{formatMoney(instalment.amountCents)}</td>
            <td>
              <span className={`instalment-state instalment-state--${instalment.state}`}>
                {STATE_LABELS[instalment.state]}
              </span>
              {instalment.paidOn && instalment.paidOn !== instalment.dueOn && (
                <span className="payment-schedule__paid-on">
                  {' '}
                  on <time dateTime={instalment.paidOn}>{formatCalendarDate(instalment.paidOn)}</time>
                </span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
