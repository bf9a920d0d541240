import type { BankAccount, PaymentOptions } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Banner } from '../../components/banner';
import { FieldError, fieldErrorId } from '../../components/form-field';
import { formatCalendarDate, formatMoney } from '../../loans/loan-format';
import { BankAccountChoice, verifiedAccounts } from './bank-account-choice';
import { formatBankingDay, formatCutoff, parseDollars } from './payment-format';

export const DETAILS_TITLE_ID = 'pay-details-title';
const AMOUNT_ID = 'pay-amount';
const OTHER_ID = 'pay-other-amount';
const DATE_ID = 'pay-date';
const ACCOUNT_ID = 'pay-account';

/** The least a payment can be, in cents (MakePaymentRequestSchema). */
export const MIN_PAYMENT_CENTS = 100;

export type AmountChoice = 'past_due' | 'next' | 'payoff' | 'other';

export interface DetailsForm {
  choice: AmountChoice | '';
  /** The other amount as typed, in dollars. */
  other: string;
  effectiveOn: string;
  bankAccountId: string;
}

/** What was chosen, once valid: what the review shows and the payment sends. */
export interface PaymentTerms {
  amountCents: number;
  effectiveOn: string;
  account: BankAccount;
}

/** The amounts offered, from the loan's payment options: past due, next payment, payoff. */
export function presetAmounts(options: PaymentOptions): Partial<Record<AmountChoice, number>> {
  return {
    ...(options.pastDueCents ? { past_due: options.pastDueCents } : {}),
    ...(options.nextInstalment ? { next: options.nextInstalment.amountCents } : {}),
    ...(options.payoffCents > 0 ? { payoff: options.payoffCents } : {}),
  };
}

export function initialDetails(options: PaymentOptions, accounts: BankAccount[]): DetailsForm {
  const presets = presetAmounts(options);
  const usable = verifiedAccounts(accounts);
  return {
    choice: presets.past_due ? 'past_due' : presets.next ? 'next' : '',
    other: '',
    effectiveOn: options.bankingDays[0] ?? '',
    bankAccountId: usable.length === 1 ? usable[0]!.id : '',
  };
}

// What a field's check found, named; the words are the screen's, in its language when shown.
type Problem =
  | 'choose-amount'
  | 'enter-amount'
  | 'amount-format'
  | 'under-minimum'
  | 'over-payoff'
  | 'over-limit'
  | 'choose-date'
  | 'choose-account';

/** An amount's problem against the limits: under $1.00, over the payoff, over the online limit. */
function amountProblem(cents: number, options: PaymentOptions): Problem | null {
  if (cents < MIN_PAYMENT_CENTS) return 'under-minimum';
  // The lower of the two limits is the one said.
  if (cents > options.payoffCents && options.payoffCents <= options.maxPaymentCents) return 'over-payoff';
  if (cents > options.maxPaymentCents) return 'over-limit';
  return null;
}

interface PayDetailsStepProps {
  options: PaymentOptions;
  accounts: BankAccount[];
  defaults: DetailsForm;
  /** A refusal of the payment that brought the borrower back here, in words. */
  notice: string | null;
  onDismissNotice: () => void;
  onReview: (form: DetailsForm, terms: PaymentTerms) => void;
}

/**
 * Step 1: how much (radio cards), which banking day (a list), from which verified account (the screen
 * shows the way to add one instead while there is none).
 */
export function PayDetailsStep({
  options,
  accounts,
  defaults,
  notice,
  onDismissNotice,
  onReview,
}: PayDetailsStepProps) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const presets = presetAmounts(options);
  const usable = useMemo(() => verifiedAccounts(accounts), [accounts]);
  const {
    register,
    handleSubmit,
    setValue,
    control,
    getValues,
    formState: { errors },
  } = useForm<DetailsForm>({ mode: 'onSubmit', reValidateMode: 'onChange', defaultValues: defaults });
  // The days and accounts asked for again (after a refusal): a choice no longer offered is not kept.
  useEffect(() => {
    if (!options.bankingDays.includes(getValues('effectiveOn')))
      setValue('effectiveOn', options.bankingDays[0] ?? '');
    if (!usable.some((a) => a.id === getValues('bankAccountId'))) setValue('bankAccountId', '');
  }, [options.bankingDays, usable, getValues, setValue]);

  const money = (cents: number) => formatMoney(cents, locale);
  const min = money(MIN_PAYMENT_CENTS);
  const payoff = money(options.payoffCents);
  const max = money(options.maxPaymentCents);
  // The most another amount can be: the payoff, or the online limit where it is lower.
  const most = money(Math.min(options.payoffCents, options.maxPaymentCents));
  const words = (problem: string | undefined): string | undefined => {
    switch (problem as Problem | undefined) {
      case undefined:
        return undefined;
      case 'choose-amount':
        return t`Choose how much to pay.`;
      case 'enter-amount':
        return t`Enter the amount to pay.`;
      case 'amount-format':
        return t`Enter an amount in dollars and cents, like 250.00.`;
      case 'under-minimum':
        return t`The least you can pay is ${min}.`;
      case 'over-payoff':
        return t`That’s more than your payoff amount, ${payoff}.`;
      case 'over-limit':
        return t`That’s more than you can pay at once online, ${max}. Call us to pay more.`;
      case 'choose-date':
        return t`Choose a payment date.`;
      case 'choose-account':
        return t`Choose the account to pay from.`;
    }
  };

  const choice = useWatch({ control, name: 'choice' });
  const choiceError = words(errors.choice?.message);
  const otherError = words(errors.other?.message);
  const dateError = words(errors.effectiveOn?.message);
  const accountError = words(errors.bankAccountId?.message);

  const submit = (form: DetailsForm) => {
    const amountCents =
      form.choice === 'other' ? parseDollars(form.other) : presets[form.choice as AmountChoice];
    const account = usable.find((a) => a.id === form.bankAccountId);
    if (amountCents === null || amountCents === undefined || !account) return;
    onReview(form, { amountCents, effectiveOn: form.effectiveOn, account });
  };

  const choiceInput = register('choice', {
    // The other amount is checked again as the choice changes (its message goes with it).
    deps: ['other'],
    validate: (value) => {
      if (!value) return 'choose-amount';
      if (value === 'other') return true;
      const cents = presets[value];
      return cents === undefined ? 'choose-amount' : (amountProblem(cents, options) ?? true);
    },
  });
  const otherInput = register('other', {
    validate: (value, form) => {
      if (form.choice !== 'other') return true;
      if (!value.trim()) return 'enter-amount';
      const cents = parseDollars(value);
      if (cents === null) return 'amount-format';
      return amountProblem(cents, options) ?? true;
    },
  });
  const cutoff = formatCutoff(options.cutoff, options.earliestDate, locale);
  const nextDue = options.nextInstalment && formatCalendarDate(options.nextInstalment.dueOn, locale);

  const amountCard = (value: AmountChoice, title: string, detail: string | null, amount: string | null) => (
    <label className="pay-option" htmlFor={`${AMOUNT_ID}-${value}`} data-testid={`amount-${value}`}>
      <input
        {...choiceInput}
        id={`${AMOUNT_ID}-${value}`}
        type="radio"
        value={value}
        aria-describedby={detail ? `${AMOUNT_ID}-${value}-detail` : undefined}
      />
      <span className="pay-option__text">
        <span className="pay-option__title">
          {title}
          {amount && <span className="pay-option__amount">{amount}</span>}
        </span>
        {detail && (
          <span className="pay-option__detail" id={`${AMOUNT_ID}-${value}-detail`}>
            {detail}
          </span>
        )}
      </span>
    </label>
  );

  return (
    <form className="pay-step" onSubmit={handleSubmit(submit)} noValidate aria-labelledby={DETAILS_TITLE_ID}>
      <header className="pay-step__header">
        <p className="pay-step__position">
          <Trans>Step 1 of 2</Trans>
        </p>
        <h2 id={DETAILS_TITLE_ID} tabIndex={-1}>
          <Trans>Payment details</Trans>
        </h2>
      </header>
      {notice && (
        <Banner type="error" onDismiss={onDismissNotice} testId="pay-notice">
          {notice}
        </Banner>
      )}

      <fieldset
        className="pay-choice"
        aria-describedby={choiceError ? fieldErrorId(AMOUNT_ID) : undefined}
        data-testid="amount-choice"
      >
        <legend className="pay-choice__legend">
          <Trans>Amount</Trans>
        </legend>
        <div className="pay-choice__options">
          {presets.past_due !== undefined &&
            amountCard(
              'past_due',
              t`Past due amount`,
              t`Brings your loan up to date.`,
              money(presets.past_due),
            )}
          {presets.next !== undefined &&
            amountCard('next', t`Next payment`, nextDue && t`Due ${nextDue}`, money(presets.next))}
          {presets.payoff !== undefined &&
            amountCard('payoff', t`Payoff amount`, t`Pays off your loan in full.`, money(presets.payoff))}
          <div className="pay-option pay-option--other" data-testid="amount-other">
            <label className="pay-option__radio" htmlFor={`${AMOUNT_ID}-other`}>
              <input {...choiceInput} id={`${AMOUNT_ID}-other`} type="radio" value="other" />
              <span className="pay-option__title">
                <Trans>Other amount</Trans>
              </span>
            </label>
            <div className="pay-other">
              <label className="visually-hidden" htmlFor={OTHER_ID}>
                <Trans>Other amount in dollars</Trans>
              </label>
              <span className="pay-other__field">
                <span className="pay-other__currency" aria-hidden="true">
                  $
                </span>
                <input
                  {...otherInput}
                  id={OTHER_ID}
                  className="text-input pay-other__input"
                  type="text"
                  inputMode="decimal"
                  autoComplete="off"
                  onFocus={() => {
                    if (choice !== 'other') setValue('choice', 'other');
                  }}
                  aria-invalid={otherError ? true : undefined}
                  aria-describedby={[otherError && fieldErrorId(OTHER_ID), `${OTHER_ID}-hint`]
                    .filter(Boolean)
                    .join(' ')}
                />
              </span>
              <p className="pay-hint" id={`${OTHER_ID}-hint`}>
                <Trans>
                  From {min} up to {most}.
                </Trans>
              </p>
              {otherError && <FieldError id={OTHER_ID} message={otherError} />}
            </div>
          </div>
        </div>
        {choiceError && <FieldError id={AMOUNT_ID} message={choiceError} />}
      </fieldset>

      <div className={`form-field${dateError ? ' form-field--invalid' : ''}`}>
        <label className="form-field__label" htmlFor={DATE_ID}>
          <Trans>Payment date</Trans>
        </label>
        <select
          {...register('effectiveOn', {
            validate: (day) => options.bankingDays.includes(day) || 'choose-date',
          })}
          id={DATE_ID}
          className="text-input pay-date"
          aria-invalid={dateError ? true : undefined}
          aria-describedby={[dateError && fieldErrorId(DATE_ID), `${DATE_ID}-hint`].filter(Boolean).join(' ')}
        >
          {options.bankingDays.map((day) => (
            <option key={day} value={day}>
              {formatBankingDay(day, locale)}
            </option>
          ))}
        </select>
        <p className="pay-hint" id={`${DATE_ID}-hint`} data-testid="pay-cutoff">
          <Trans>
            The day the money leaves your account: a banking day. Payments made after{' '}
            <span className="pay-nowrap">{cutoff}</span> go the next banking day.
          </Trans>
        </p>
        {dateError && <FieldError id={DATE_ID} message={dateError} />}
      </div>

      <BankAccountChoice
        id={ACCOUNT_ID}
        legend={<Trans>Pay from</Trans>}
        accounts={accounts}
        input={register('bankAccountId', {
          validate: (id) => usable.some((a) => a.id === id) || 'choose-account',
        })}
        error={accountError}
      />

      <div className="pay-step__actions">
        <button type="submit" className="button button--primary">
          <Trans>Review payment</Trans>
        </button>
      </div>
    </form>
  );
}
