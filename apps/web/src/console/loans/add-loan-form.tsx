import {
  AddLoanRequestSchema,
  contradictionsOf,
  operatorEndpoints,
  type AddLoanRequest,
  type LoanStatus,
  type OperatorLoan,
} from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Banner } from '../../components/banner';
import { BusyButton } from '../../components/busy-button';
import { TextField } from '../../components/text-field';
import { inPortalLanguage } from '../../i18n/in-portal-language';
import { ConsoleSection } from '../components/console-section';
import { ReasonField, reasonProblem } from '../components/reason-field';
import { SelectField } from '../components/select-field';
import { checkResolver, type Checked } from '../lib/check-resolver';
import { fieldErrorsOf } from '../lib/form-issues';
import { dollarsToCents } from '../lib/money';
import { useConsoleApi } from '../session/console-api';
import {
  AMOUNT_PROBLEM,
  DATE_PROBLEM,
  DateField,
  MoneyField,
  NEXT_PAYMENT_PROBLEM,
  PRODUCT_PROBLEM,
  REFERENCE_PROBLEM,
  StatusOptions,
} from './loan-fields';
import { LoanResult } from './loan-result';

interface AddLoanForm {
  borrowerEmail: string;
  reference: string;
  product: string;
  amount: string;
  balance: string;
  status: LoanStatus;
  nextDueOn: string;
  nextAmount: string;
  reason: string;
}

const FIELDS: Record<string, keyof AddLoanForm> = {
  borrowerEmail: 'borrowerEmail',
  reference: 'reference',
  product: 'product',
  amountCents: 'amount',
  balanceCents: 'balance',
  status: 'status',
};

/** Adds a loan for a borrower (created if there is none yet), its terms checked as the API checks them. */
export function AddLoanForm() {
  const { t, i18n } = useLingui();
  const api = useConsoleApi();
  const [added, setAdded] = useState<OperatorLoan | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [contradictions, setContradictions] = useState<string[]>([]);

  const check = (values: AddLoanForm): Checked<AddLoanForm, AddLoanRequest> => {
    const errors: Partial<Record<keyof AddLoanForm, { type: string; message: string }>> = {};
    const amountCents = dollarsToCents(values.amount);
    const balanceCents = dollarsToCents(values.balance);
    if (amountCents === null) errors.amount = { type: 'validate', message: i18n._(AMOUNT_PROBLEM) };
    if (balanceCents === null) errors.balance = { type: 'validate', message: i18n._(AMOUNT_PROBLEM) };
    let nextPayment: AddLoanRequest['nextPayment'] = null;
    if (values.nextDueOn || values.nextAmount.trim()) {
      const nextCents = values.nextAmount.trim() ? dollarsToCents(values.nextAmount) : null;
      if (!values.nextDueOn) errors.nextDueOn = { type: 'validate', message: i18n._(NEXT_PAYMENT_PROBLEM) };
      if (!values.nextAmount.trim())
        errors.nextAmount = { type: 'validate', message: i18n._(NEXT_PAYMENT_PROBLEM) };
      else if (nextCents === null) errors.nextAmount = { type: 'validate', message: i18n._(AMOUNT_PROBLEM) };
      if (values.nextDueOn && nextCents !== null)
        nextPayment = { dueOn: values.nextDueOn, amountCents: nextCents };
    }
    const parsed = AddLoanRequestSchema.safeParse({
      borrowerEmail: values.borrowerEmail,
      reference: values.reference.trim().toUpperCase(),
      product: values.product,
      amountCents: amountCents ?? 0,
      balanceCents: balanceCents ?? 0,
      status: values.status,
      nextPayment,
    });
    if (!parsed.success) {
      // Terms that contradict each other are said together under the form, on submit (contradictionsOf).
      const found = fieldErrorsOf<AddLoanForm>(
        parsed.error.issues,
        ([field, part]) =>
          field === 'nextPayment'
            ? part === 'dueOn'
              ? 'nextDueOn'
              : 'nextAmount'
            : (FIELDS[String(field)] ?? null),
        {
          reference: i18n._(REFERENCE_PROBLEM),
          product: i18n._(PRODUCT_PROBLEM),
          nextDueOn: i18n._(DATE_PROBLEM),
        },
      );
      for (const [field, error] of Object.entries(found))
        errors[field as keyof AddLoanForm] ??= error as never;
    }
    const problem = reasonProblem(values.reason, false, i18n);
    if (problem) errors.reason = { type: 'validate', message: problem };
    if (Object.keys(errors).length > 0) return { errors };
    // Valid field by field: contradictions are left to the submit.
    return {
      request: {
        borrowerEmail: values.borrowerEmail.trim().toLowerCase(),
        reference: values.reference.trim().toUpperCase(),
        product: values.product.trim(),
        amountCents: amountCents!,
        balanceCents: balanceCents!,
        status: values.status,
        nextPayment,
      },
    };
  };

  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<AddLoanForm>({
    resolver: checkResolver(check),
    defaultValues: {
      borrowerEmail: '',
      reference: '',
      product: '',
      amount: '',
      balance: '',
      status: 'ACTIVE',
      nextDueOn: '',
      nextAmount: '',
      reason: '',
    },
  });

  const add = async (values: AddLoanForm) => {
    setFailure(null);
    setAdded(null);
    const checked = check(values);
    if (!('request' in checked)) return;
    const found = contradictionsOf(checked.request);
    setContradictions(found);
    if (found.length > 0) return document.getElementById('add-loan-contradictions')?.focus();
    const outcome = await api.call(operatorEndpoints.loans, { body: checked.request, reason: values.reason });
    if (!outcome.ok) return setFailure(outcome.failure.quiet ? null : outcome.failure.message);
    setAdded(outcome.data);
    reset();
  };

  const addedReference = added?.reference;
  return (
    <ConsoleSection
      id="add-loan"
      title={t`Add a loan`}
      intro={t`For the borrower with this email address; one is added if there’s none yet.`}
    >
      <form className="console-form" onSubmit={handleSubmit(add)} noValidate>
        {added && (
          <Banner type="success" onDismiss={() => setAdded(null)} testId="loan-added">
            <Trans>Loan {addedReference} added.</Trans>
          </Banner>
        )}
        {added && <LoanResult loan={added} />}
        {failure && (
          <Banner type="error" onDismiss={() => setFailure(null)} testId="add-loan-error">
            {failure}
          </Banner>
        )}
        <TextField
          id="add-loan-email"
          label={t`Borrower’s email address`}
          input={{ ...register('borrowerEmail'), type: 'email', autoComplete: 'off', spellCheck: false }}
          error={errors.borrowerEmail?.message}
        />
        <div className="console-form__row">
          <TextField
            id="add-loan-reference"
            label={t`Reference`}
            input={{
              ...register('reference'),
              autoComplete: 'off',
              autoCapitalize: 'characters',
              spellCheck: false,
            }}
            error={errors.reference?.message}
          />
          <TextField
            id="add-loan-product"
            label={t`Product`}
            input={{ ...register('product'), autoComplete: 'off' }}
            error={errors.product?.message}
          />
        </div>
        <div className="console-form__row">
          <MoneyField
            id="add-loan-amount"
            label={t`Amount lent`}
            input={register('amount')}
            error={errors.amount?.message}
          />
          <MoneyField
            id="add-loan-balance"
            label={t`Balance`}
            input={register('balance')}
            error={errors.balance?.message}
          />
        </div>
        <SelectField id="add-loan-status" label={t`Status`} select={register('status')}>
          <StatusOptions />
        </SelectField>
        <fieldset className="console-fieldset">
          <legend>{t`Next payment (optional)`}</legend>
          <div className="console-form__row">
            <DateField
              id="add-loan-next-due"
              label={t`Due on`}
              input={register('nextDueOn')}
              error={errors.nextDueOn?.message}
            />
            <MoneyField
              id="add-loan-next-amount"
              label={t`Amount`}
              input={register('nextAmount')}
              error={errors.nextAmount?.message}
            />
          </div>
        </fieldset>
        <ReasonField
          id="add-loan-reason"
          required={false}
          input={register('reason')}
          error={errors.reason?.message}
        />
        <div id="add-loan-contradictions" className="console-contradictions" tabIndex={-1} role="alert">
          {contradictions.length > 0 && (
            <>
              <p>{t`These terms contradict each other:`}</p>
              <ul>
                {contradictions.map((found) => (
                  <li key={found}>{inPortalLanguage(found)}</li>
                ))}
              </ul>
            </>
          )}
        </div>
        <div className="console-actions">
          <BusyButton busy={isSubmitting} busyText={t`Adding the loan`} className="button button--primary">
            <Trans>Add loan</Trans>
          </BusyButton>
        </div>
      </form>
    </ConsoleSection>
  );
}
