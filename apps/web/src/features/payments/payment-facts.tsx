import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';

/**
 * What a payment is, as the review and the confirmation both list it: its reference once it has one,
 * the amount, the day and the account it is paid from.
 */
export function PaymentFacts({
  className,
  testId,
  reference,
  amount,
  effectiveOn,
  day,
  account,
}: {
  className: string;
  testId: string;
  reference?: ReactNode;
  amount: string;
  effectiveOn: string;
  day: string;
  account: string;
}) {
  return (
    <dl className={`loan-facts ${className}`} data-testid={testId}>
      {reference && (
        <div>
          <dt>
            <Trans>Reference</Trans>
          </dt>
          <dd data-testid="payment-reference">{reference}</dd>
        </div>
      )}
      <div>
        <dt>
          <Trans>Amount</Trans>
        </dt>
        <dd>{amount}</dd>
      </div>
      <div>
        <dt>
          <Trans>Payment date</Trans>
        </dt>
        <dd>
          <time dateTime={effectiveOn}>{day}</time>
        </dd>
      </div>
      <div>
        <dt>
          <Trans>Pay from</Trans>
        </dt>
        <dd>{account}</dd>
      </div>
    </dl>
  );
}
