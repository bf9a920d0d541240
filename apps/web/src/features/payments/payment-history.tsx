import type { Payment } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { formatCalendarDate, formatMoney } from '../../loans/loan-format';
import { formatDeadline } from './payment-format';
import { PAYMENT_STATUS_LABELS, accountLabel, returnReasonWords } from './payment-words';

/** A scheduled payment the borrower can still cancel (its cut-off is ahead). */
export const isCancellable = (payment: Payment, now = Date.now()) =>
  payment.status === 'scheduled' &&
  payment.cancellableUntil !== null &&
  new Date(payment.cancellableUntil).getTime() > now;

const MINUTE = 60_000;

/** The time now, again each minute: a payment's cut-off passes while the page is open. */
function useNow() {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), MINUTE);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The loan's payments, newest first: day, amount, account, status in words (a returned one with the
 * bank's reason), autopay's marked, and "Cancel" on one that can still be cancelled.
 */
export function PaymentHistory({
  payments,
  onCancel,
}: {
  payments: Payment[];
  onCancel: (payment: Payment) => void;
}) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const now = useNow();
  if (payments.length === 0)
    return (
      <p className="payment-history__empty" data-testid="payments-empty">
        <Trans>No payments made online yet.</Trans>
      </p>
    );
  return (
    <ul className="payment-history" data-testid="payments">
      {payments.map((payment) => {
        const amount = formatMoney(payment.amountCents, locale);
        const day = formatCalendarDate(payment.effectiveOn, locale);
        const reference = payment.reference;
        const cancellable = isCancellable(payment, now);
        const until =
          cancellable && payment.cancellableUntil && formatDeadline(payment.cancellableUntil, locale);
        return (
          <li
            key={payment.id}
            className="payment-row"
            data-testid="payment"
            data-status={payment.status}
            data-kind={payment.kind}
          >
            <div className="payment-row__what">
              <p className="payment-row__day">
                <time dateTime={payment.effectiveOn}>{day}</time>
                {payment.kind === 'autopay' && (
                  <span className="payment-kind" data-testid="payment-kind">
                    <Trans>Autopay</Trans>
                  </span>
                )}
              </p>
              <p className="payment-row__account">
                {accountLabel(payment.bankAccount, i18n)}
                <span className="payment-row__reference">
                  <Trans>Ref. {reference}</Trans>
                </span>
              </p>
            </div>
            <p className="payment-row__amount">{amount}</p>
            <div className="payment-row__state">
              <span
                className={`payment-status payment-status--${payment.status}`}
                data-testid="payment-status"
              >
                {i18n._(PAYMENT_STATUS_LABELS[payment.status])}
              </span>
              {payment.status === 'returned' && (
                <p className="payment-row__reason" data-testid="payment-return-reason">
                  {returnReasonWords(payment.returnCode)}
                </p>
              )}
              {until && (
                <p className="payment-row__until">
                  <Trans>You can cancel until {until}.</Trans>
                </p>
              )}
            </div>
            {cancellable && (
              <button
                type="button"
                className="button button--secondary payment-row__cancel"
                aria-label={t`Cancel the payment of ${amount} on ${day}`}
                onClick={() => onCancel(payment)}
              >
                <Trans>Cancel</Trans>
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
