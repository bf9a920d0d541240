import {
  paymentAuthorizationText,
  type Autopay,
  type BankAccount,
  type LoanDetail,
  type LoanPayments,
} from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Banner } from '../../components/banner';
import { BusyButton } from '../../components/busy-button';
import { formatCalendarDate, formatMoney } from '../../loans/loan-format';
import { Authorization } from './authorization';
import { BankAccountChoice, NoUsableAccount, verifiedAccounts } from './bank-account-choice';
import { ConfirmDialog } from './confirm-dialog';
import { authorizationLocale, formatDeadline, sha256Hex } from './payment-format';
import { accountLabel } from './payment-words';
import { turnOffAutopay, turnOnAutopay } from './payments-api';

export const AUTOPAY_TITLE_ID = 'autopay-title';
const FORM_TITLE_ID = 'autopay-form-title';
const TURN_ON_ID = 'autopay-turn-on';
const ACCOUNT_ID = 'autopay-account';
const AUTHORIZED_ID = 'autopay-authorized';

interface AutopaySectionProps {
  loan: LoanDetail;
  facts: LoanPayments;
  /** Null: they could not be loaded (`retryAccounts` asks again). */
  accounts: BankAccount[] | null;
  retryAccounts: () => void;
  /** Autopay turned on or off: what the page shows is asked for again, and the change announced. */
  onChanged: (autopay: Autopay) => void;
  payable: boolean;
}

/**
 * Autopay of the loan: on, the account it debits, the next debit and until when it can be turned off
 * before it; off, the way to turn it on (a verified account, its standing authorization accepted).
 */
export function AutopaySection({
  loan,
  facts,
  accounts,
  retryAccounts,
  onChanged,
  payable,
}: AutopaySectionProps) {
  const { t, i18n } = useLingui();
  const { autopay } = facts;
  const [turningOn, setTurningOn] = useState(false);
  const [turningOff, setTurningOff] = useState(false);
  useEffect(() => {
    if (turningOn) document.getElementById(FORM_TITLE_ID)?.focus();
  }, [turningOn]);

  const next = autopay.nextDebit;
  const nextAmount = next && formatMoney(next.amountCents, i18n.locale);
  const nextDay = next && formatCalendarDate(next.on, i18n.locale);
  const changeBy = autopay.changeBy && formatDeadline(autopay.changeBy, i18n.locale);
  const account = autopay.bankAccount && accountLabel(autopay.bankAccount, i18n);
  return (
    <section
      className="autopay"
      aria-labelledby={AUTOPAY_TITLE_ID}
      data-testid="autopay"
      data-enabled={autopay.enabled}
    >
      <div className="autopay__header">
        <h2 id={AUTOPAY_TITLE_ID} tabIndex={-1}>
          <Trans>Autopay</Trans>
        </h2>
        <span
          className={`autopay-state autopay-state--${autopay.enabled ? 'on' : 'off'}`}
          data-testid="autopay-state"
        >
          {autopay.enabled ? <Trans>On</Trans> : <Trans>Off</Trans>}
        </span>
      </div>
      {autopay.enabled ? (
        <>
          <div className="autopay__facts">
            {account && (
              <p>
                <Trans>
                  Pays each payment from <strong>{account}</strong> on its due date, or the next banking day.
                </Trans>
              </p>
            )}
            {next ? (
              <p data-testid="autopay-next">
                <Trans>
                  Next debit: <strong>{nextAmount}</strong> on <time dateTime={next.on}>{nextDay}</time>
                </Trans>
              </p>
            ) : (
              <p data-testid="autopay-next">
                <Trans>No debit is coming up.</Trans>
              </p>
            )}
            {changeBy && (
              <p className="autopay__until">
                <Trans>You can turn it off until {changeBy} to stop this debit.</Trans>
              </p>
            )}
          </div>
          <button
            type="button"
            className="button button--secondary autopay__action"
            onClick={() => setTurningOff(true)}
          >
            <Trans>Turn off autopay</Trans>
          </button>
          {turningOff && (
            <ConfirmDialog
              title={t`Turn off autopay?`}
              description={
                <Trans>
                  We won’t debit this loan’s payments automatically any more: make each one yourself, or turn
                  autopay on again. A debit already sent to your bank still goes.
                </Trans>
              }
              confirmLabel={t`Turn off autopay`}
              keepLabel={t`Keep autopay`}
              onConfirm={async () => {
                const result = await turnOffAutopay(loan.id);
                if (!result.ok) return result.message;
                onChanged(result.value);
                return null;
              }}
              onClose={() => setTurningOff(false)}
              focusAfter={() => AUTOPAY_TITLE_ID}
              testId="autopay-off-dialog"
            />
          )}
        </>
      ) : !payable ? (
        <p>
          <Trans>Autopay is off.</Trans>
        </p>
      ) : turningOn ? (
        accounts === null ? (
          <div className="autopay__problem" role="alert">
            <p>
              <Trans>We couldn’t load your bank accounts just now. Please try again in a few minutes.</Trans>
            </p>
            <button type="button" className="button button--secondary" onClick={retryAccounts}>
              <Trans>Try again</Trans>
            </button>
          </div>
        ) : verifiedAccounts(accounts).length === 0 ? (
          <NoUsableAccount accounts={accounts} purpose="autopay" />
        ) : (
          <AutopayForm
            loan={loan}
            facts={facts}
            accounts={accounts}
            onCancel={() => {
              setTurningOn(false);
              document.getElementById(AUTOPAY_TITLE_ID)?.focus();
            }}
            onDone={(turnedOn) => {
              setTurningOn(false);
              onChanged(turnedOn);
              document.getElementById(AUTOPAY_TITLE_ID)?.focus();
            }}
          />
        )
      ) : (
        <>
          <p>
            <Trans>
              Autopay is off. Turn it on to pay each payment of this loan from your bank account on its due
              date.
            </Trans>
          </p>
          <button
            type="button"
            id={TURN_ON_ID}
            className="button button--secondary autopay__action"
            onClick={() => setTurningOn(true)}
          >
            <Trans>Turn on autopay</Trans>
          </button>
        </>
      )}
    </section>
  );
}

interface AutopayFormProps {
  loan: LoanDetail;
  facts: LoanPayments;
  accounts: BankAccount[];
  onCancel: () => void;
  onDone: (autopay: Autopay) => void;
}

/** Turning autopay on: the account, its standing authorization (shown once an account is chosen), the checkbox. */
function AutopayForm({ loan, facts, accounts, onCancel, onDone }: AutopayFormProps) {
  const { t, i18n } = useLingui();
  const usable = verifiedAccounts(accounts);
  const {
    register,
    handleSubmit,
    control,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<{ bankAccountId: string; authorized: boolean }>({
    defaultValues: { bankAccountId: usable.length === 1 ? usable[0]!.id : '', authorized: false },
  });
  const [failure, setFailure] = useState<string | null>(null);
  const locale = authorizationLocale(i18n.locale);
  const chosenId = useWatch({ control, name: 'bankAccountId' });
  const chosen = usable.find((a) => a.id === chosenId);
  // Another account is another authorization: accepted again.
  useEffect(() => setValue('authorized', false), [chosenId, setValue]);
  const text =
    chosen &&
    paymentAuthorizationText({
      locale,
      holderName: chosen.holderName,
      bankName: chosen.bankName,
      last4: chosen.last4,
      lenderName: facts.lender.name,
      supportPhone: facts.lender.supportPhone,
      terms: { kind: 'autopay', loanReference: loan.reference },
    });

  const turnOn = async () => {
    if (!chosen || !text) return;
    setFailure(null);
    const result = await turnOnAutopay(loan.id, {
      locale,
      bankAccountId: chosen.id,
      authorizationSha256: await sha256Hex(text),
      authorized: true,
    });
    if (result.ok) return onDone(result.value);
    setFailure(result.message);
  };

  const accountError = errors.bankAccountId && t`Choose the account to pay from.`;
  const authorizedError = errors.authorized && t`Check the box to authorize these debits.`;
  return (
    <form
      className="autopay-form"
      onSubmit={handleSubmit(turnOn)}
      noValidate
      aria-labelledby={FORM_TITLE_ID}
      data-testid="autopay-form"
    >
      <h3 id={FORM_TITLE_ID} tabIndex={-1}>
        <Trans>Turn on autopay</Trans>
      </h3>
      <p>
        <Trans>
          We’ll debit each payment of this loan on its due date, or the next banking day. You can turn autopay
          off here.
        </Trans>
      </p>
      <BankAccountChoice
        id={ACCOUNT_ID}
        legend={<Trans>Pay from</Trans>}
        accounts={accounts}
        input={register('bankAccountId', { required: true })}
        error={accountError || undefined}
      />
      {text ? (
        <Authorization
          id={AUTHORIZED_ID}
          text={text}
          lang={locale}
          input={register('authorized', { required: true })}
          error={authorizedError || undefined}
        >
          <Trans>I authorize these debits</Trans>
        </Authorization>
      ) : (
        <p className="pay-hint">
          <Trans>Choose an account to see the authorization you give.</Trans>
        </p>
      )}
      {failure && (
        <Banner type="error" onDismiss={() => setFailure(null)} testId="autopay-error">
          {failure}
        </Banner>
      )}
      <div className="pay-step__actions">
        <BusyButton busy={isSubmitting} busyText={t`Turning on autopay…`} className="button button--primary">
          <Trans>Turn on autopay</Trans>
        </BusyButton>
        <button type="button" className="button button--secondary" onClick={onCancel} disabled={isSubmitting}>
          <Trans>Not now</Trans>
        </button>
      </div>
    </form>
  );
}
