import type { Instalment } from '@customer-core/contracts';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { formatCalendarDate, formatMoney } from '../../loans/loan-format';

// An instalment's state (a "cuota" in Spanish, whose words agree with it: the context says so).
const STATE_LABELS: Record<Instalment['state'], MessageDescriptor> = {
  paid: msg({ message: 'Paid', context: 'instalment' }),
  past_due: msg({ message: 'Past due', context: 'instalment' }),
  upcoming: msg({ message: 'Upcoming', context: 'instalment' }),
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
  const { i18n } = useLingui();
  if (instalments.length === 0)
    return (
      <p className="payment-schedule__empty">
        {hasNextPayment ? (
          <Trans>Your full payment schedule isn’t here yet. Your next payment is shown above.</Trans>
        ) : (
          <Trans>No payments are scheduled for this loan.</Trans>
        )}
      </p>
    );
  return (
    <table className="payment-schedule" data-testid="payment-schedule">
      <thead>
        <tr>
          <th scope="col">
            <Trans>Due</Trans>
          </th>
          <th scope="col" className="payment-schedule__amount">
            <Trans>Amount</Trans>
          </th>
          <th scope="col">
            <Trans>Status</Trans>
          </th>
        </tr>
      </thead>
      <tbody>
        {instalments.map((instalment) => {
          const paidOn =
            instalment.paidOn && instalment.paidOn !== instalment.dueOn ? instalment.paidOn : null;
          const paidOnDay = paidOn && formatCalendarDate(paidOn, i18n.locale);
          return (
            <tr key={instalment.dueOn} data-state={instalment.state} data-testid="instalment">
              <td>
                <time dateTime={instalment.dueOn}>{formatCalendarDate(instalment.dueOn, i18n.locale)}</time>
              </td>
              <td className="payment-schedule__amount">{formatMoney(instalment.amountCents, i18n.locale)}</td>
              <td>
                <span className={`instalment-state instalment-state--${instalment.state}`}>
                  {i18n._(STATE_LABELS[instalment.state])}
                </span>
                {paidOn && (
                  <span className="payment-schedule__paid-on">
                    {' '}
                    <Trans>
                      on <time dateTime={paidOn}>{paidOnDay}</time>
                    </Trans>
                  </span>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
