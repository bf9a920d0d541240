import { routes, type LoanDetail, type Payment } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { SuccessBadge } from '../../components/success-badge';
import { formatCalendarDate, formatMoney } from '../../loans/loan-format';
import { formatBankingDay, formatDeadline } from './payment-format';
import { PaymentFacts } from './payment-facts';
import { accountLabel } from './payment-words';

export const DONE_TITLE_ID = 'pay-done-title';

/** The payment made: its reference, what, when and from where, until when it can be cancelled. */
export function PayDoneStep({ loan, payment }: { loan: LoanDetail; payment: Payment }) {
  const { i18n } = useLingui();
  const amount = formatMoney(payment.amountCents, i18n.locale);
  const day = formatBankingDay(payment.effectiveOn, i18n.locale);
  const date = formatCalendarDate(payment.effectiveOn, i18n.locale);
  const account = accountLabel(payment.bankAccount, i18n);
  const until = payment.cancellableUntil && formatDeadline(payment.cancellableUntil, i18n.locale);
  return (
    <section className="pay-done" aria-labelledby={DONE_TITLE_ID} data-testid="pay-done">
      <SuccessBadge />
      <div className="pay-done__text">
        <h2 id={DONE_TITLE_ID} tabIndex={-1}>
          <Trans>Payment scheduled</Trans>
        </h2>
        <p>
          <Trans>
            We’ll debit {amount} from {account} on {date}.
          </Trans>
        </p>
      </div>
      <PaymentFacts
        className="pay-done__facts"
        testId="pay-done-facts"
        reference={payment.reference}
        amount={amount}
        effectiveOn={payment.effectiveOn}
        day={day}
        account={account}
      />
      {until && (
        <p className="pay-done__until" data-testid="pay-cancel-until">
          <Trans>You can cancel it until {until} on your loan’s page.</Trans>
        </p>
      )}
      <Link
        className="button button--primary pay-done__back"
        to={routes.loanDetails.href({ loanId: loan.id })}
      >
        <Trans>Back to your loan</Trans>
      </Link>
    </section>
  );
}
