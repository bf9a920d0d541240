import {
  PAYMENT_ERROR_CODES,
  paymentAuthorizationText,
  type LoanDetail,
  type LoanPayments,
  type Payment,
} from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Banner } from '../../components/banner';
import { BusyButton } from '../../components/busy-button';
import { formatMoney } from '../../loans/loan-format';
import { Authorization } from './authorization';
import type { PaymentTerms } from './pay-details-step';
import { authorizationLocale, formatBankingDay, sha256Hex } from './payment-format';
import { PaymentFacts } from './payment-facts';
import { accountLabel } from './payment-words';
import { makePayment } from './payments-api';

export const REVIEW_TITLE_ID = 'pay-review-title';
const AUTHORIZED_ID = 'pay-authorized';

interface PayReviewStepProps {
  loan: LoanDetail;
  facts: LoanPayments;
  terms: PaymentTerms;
  /**
   * The idempotency key of a submission of these words: made once, when they are first shown, and the
   * same on every try (a double click, a retry after a failure), so that they never pay twice.
   */
  keyFor: (authorization: string) => string;
  onBack: () => void;
  onPaid: (payment: Payment) => void;
  /** A refusal that needs other details (another day, amount or account): back to them, with its words. */
  onRefused: (message: string) => void;
}

/** Refusals answered by changing the details, not by trying again. */
const CHANGE_DETAILS = new Set<string>([
  PAYMENT_ERROR_CODES.overPayoff,
  PAYMENT_ERROR_CODES.overLimit,
  PAYMENT_ERROR_CODES.overDailyLimit,
  PAYMENT_ERROR_CODES.dateUnavailable,
  PAYMENT_ERROR_CODES.accountNotUsable,
  PAYMENT_ERROR_CODES.authorizationOutdated,
]);

/** Runs one piece of work at a time: one asked for while another is under way is dropped. */
function singleFlight() {
  let running = false;
  return async (work: () => Promise<void>) => {
    if (running) return;
    running = true;
    try {
      await work();
    } finally {
      running = false;
    }
  };
}

/**
 * Step 2: what will be paid, when and from where, the authorization in the screen's language (its
 * exact words, whose SHA-256 goes with the payment), the checkbox that accepts it, and "Pay {amount}".
 */
export function PayReviewStep({ loan, facts, terms, keyFor, onBack, onPaid, onRefused }: PayReviewStepProps) {
  const { t, i18n } = useLingui();
  const locale = authorizationLocale(i18n.locale);
  const { account, amountCents, effectiveOn } = terms;
  const text = paymentAuthorizationText({
    locale,
    holderName: account.holderName,
    bankName: account.bankName,
    last4: account.last4,
    lenderName: facts.lender.name,
    supportPhone: facts.lender.supportPhone,
    terms: { kind: 'one_time', amountCents, effectiveOn },
  });
  // Made as these words are first shown, the same on every render of them (in another language: other
  // words, another submission).
  const idempotencyKey = keyFor(text);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<{ authorized: boolean }>({ defaultValues: { authorized: false } });
  const [failure, setFailure] = useState<string | null>(null);
  // One request at a time, whatever reaches the form meanwhile (a second click before it re-renders).
  const [oneAtATime] = useState(singleFlight);

  const pay = () =>
    oneAtATime(async () => {
      setFailure(null);
      const result = await makePayment(loan.id, {
        locale,
        idempotencyKey,
        amountCents,
        effectiveOn,
        bankAccountId: account.id,
        authorizationSha256: await sha256Hex(text),
        authorized: true,
      });
      if (result.ok) return onPaid(result.value);
      if (result.code && CHANGE_DETAILS.has(result.code)) return onRefused(result.message);
      setFailure(result.message);
    });

  const amount = formatMoney(amountCents, i18n.locale);
  const authorizedError = errors.authorized && t`Check the box to authorize this debit.`;
  return (
    <form
      className="pay-step"
      onSubmit={handleSubmit(pay)}
      noValidate
      aria-labelledby={REVIEW_TITLE_ID}
      data-testid="pay-review"
    >
      <header className="pay-step__header">
        <p className="pay-step__position">
          <Trans>Step 2 of 2</Trans>
        </p>
        <h2 id={REVIEW_TITLE_ID} tabIndex={-1}>
          <Trans>Review and authorize</Trans>
        </h2>
      </header>
      <PaymentFacts
        className="pay-summary"
        testId="pay-summary"
        amount={amount}
        effectiveOn={effectiveOn}
        day={formatBankingDay(effectiveOn, i18n.locale)}
        account={accountLabel(account, i18n)}
      />
      <Authorization
        id={AUTHORIZED_ID}
        text={text}
        lang={locale}
        input={register('authorized', { required: true })}
        error={authorizedError || undefined}
      >
        <Trans>I authorize this debit</Trans>
      </Authorization>
      {failure && (
        <Banner type="error" onDismiss={() => setFailure(null)} testId="pay-error">
          {failure}
        </Banner>
      )}
      <div className="pay-step__actions">
        <BusyButton busy={isSubmitting} busyText={t`Paying ${amount}…`} className="button button--primary">
          <Trans>Pay {amount}</Trans>
        </BusyButton>
        <button type="button" className="button button--secondary" onClick={onBack} disabled={isSubmitting}>
          <Trans>Change details</Trans>
        </button>
      </div>
    </form>
  );
}
