import {
  LoanReferenceSchema,
  UpdateLoanRequestSchema,
  operatorEndpoints,
  type LoanStatus,
  type OperatorLoan,
  type UpdateLoanRequest,
} from '@customer-core/contracts';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Banner } from '../../components/banner';
import { BusyButton } from '../../components/busy-button';
import { TextField } from '../../components/text-field';
import { ConsoleSection } from '../components/console-section';
import { ReasonField, reasonProblem } from '../components/reason-field';
import { SelectField } from '../components/select-field';
import { checkResolver, type Checked } from '../lib/check-resolver';
import { dollarsToCents } from '../lib/money';
import { useConsoleApi } from '../session/console-api';
import {
  AMOUNT_PROBLEM,
  DateField,
  MoneyField,
  NEXT_PAYMENT_PROBLEM,
  PRODUCT_PROBLEM,
  REFERENCE_PROBLEM,
  StatusOptions,
} from './loan-fields';
import { LoanResult } from './loan-result';

interface ChangeLoanForm {
  reference: string;
  product: string;
  amount: string;
  balance: string;
  /** Empty: the status stays. */
  status: LoanStatus | '';
  /** keep: as it is; set: the date and amount below; none: no next payment. */
  nextPayment: 'keep' | 'set' | 'none';
  nextDueOn: string;
  nextAmount: string;
  reason: string;
}

type Change = { reference: string; terms: UpdateLoanRequest };

const NO_SUCH_LOAN = msg`No loan has this reference.`;

/** Changes the terms of a loan by its reference: only the terms given; the rest stays as it is. */
export function ChangeLoanForm() {
  const { t, i18n } = useLingui();
  const api = useConsoleApi();
  const [changed, setChanged] = useState<OperatorLoan | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const check = (values: ChangeLoanForm): Checked<ChangeLoanForm, Change> => {
    const errors: Partial<Record<keyof ChangeLoanForm, { type: string; message: string }>> = {};
    const problem = (field: keyof ChangeLoanForm, message: string) => {
      errors[field] ??= { type: 'validate', message };
    };
    const reference = values.reference.trim().toUpperCase();
    if (!LoanReferenceSchema.safeParse(reference).success) problem('reference', i18n._(REFERENCE_PROBLEM));
    const terms: UpdateLoanRequest = {};
    if (values.product.trim()) terms.product = values.product.trim();
    for (const [field, term] of [
      ['amount', 'amountCents'],
      ['balance', 'balanceCents'],
    ] as const) {
      if (!values[field].trim()) continue;
      const cents = dollarsToCents(values[field]);
      if (cents === null) problem(field, i18n._(AMOUNT_PROBLEM));
      else terms[term] = cents;
    }
    if (values.status) terms.status = values.status;
    if (values.nextPayment === 'none') terms.nextPayment = null;
    if (values.nextPayment === 'set') {
      const cents = values.nextAmount.trim() ? dollarsToCents(values.nextAmount) : null;
      if (!values.nextDueOn) problem('nextDueOn', i18n._(NEXT_PAYMENT_PROBLEM));
      if (!values.nextAmount.trim()) problem('nextAmount', i18n._(NEXT_PAYMENT_PROBLEM));
      else if (cents === null) problem('nextAmount', i18n._(AMOUNT_PROBLEM));
      if (values.nextDueOn && cents !== null)
        terms.nextPayment = { dueOn: values.nextDueOn, amountCents: cents };
    }
    const parsed = UpdateLoanRequestSchema.safeParse(terms);
    if (!parsed.success) {
      const [field] = parsed.error.issues[0]?.path ?? [];
      // None given: the contract's "Give at least one term to change.", under the first term.
      if (field === undefined) problem('product', parsed.error.issues[0]!.message);
      else if (field === 'product') problem('product', i18n._(PRODUCT_PROBLEM));
      else if (field === 'nextPayment') problem('nextDueOn', parsed.error.issues[0]!.message);
    }
    const reasonError = reasonProblem(values.reason, false, i18n);
    if (reasonError) problem('reason', reasonError);
    if (Object.keys(errors).length > 0 || !parsed.success) return { errors };
    return { request: { reference, terms: parsed.data } };
  };

  const {
    register,
    handleSubmit,
    control,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ChangeLoanForm>({
    resolver: checkResolver(check),
    defaultValues: {
      reference: '',
      product: '',
      amount: '',
      balance: '',
      status: '',
      nextPayment: 'keep',
      nextDueOn: '',
      nextAmount: '',
      reason: '',
    },
  });

  const change = async (values: ChangeLoanForm) => {
    setFailure(null);
    setChanged(null);
    const checked = check(values);
    if (!('request' in checked)) return;
    const { reference, terms } = checked.request;
    const outcome = await api.call(
      operatorEndpoints.loan,
      { params: { reference }, body: terms, reason: values.reason },
      { fallback: NO_SUCH_LOAN },
    );
    if (!outcome.ok) return setFailure(outcome.failure.quiet ? null : outcome.failure.message);
    setChanged(outcome.data);
    reset();
  };

  const settingNext = useWatch({ control, name: 'nextPayment' }) === 'set';
  const changedReference = changed?.reference;
  return (
    <ConsoleSection
      id="change-loan"
      title={t`Change a loan`}
      intro={t`Only the terms you fill in change; leave the rest empty.`}
    >
      <form className="console-form" onSubmit={handleSubmit(change)} noValidate>
        {changed && (
          <Banner type="success" onDismiss={() => setChanged(null)} testId="loan-changed">
            <Trans>Loan {changedReference} changed.</Trans>
          </Banner>
        )}
        {changed && <LoanResult loan={changed} />}
        {failure && (
          <Banner type="error" onDismiss={() => setFailure(null)} testId="change-loan-error">
            {failure}
          </Banner>
        )}
        <TextField
          id="change-loan-reference"
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
          id="change-loan-product"
          label={t`Product (optional)`}
          input={{ ...register('product'), autoComplete: 'off' }}
          error={errors.product?.message}
        />
        <div className="console-form__row">
          <MoneyField
            id="change-loan-amount"
            label={t`Amount lent (optional)`}
            input={register('amount')}
            error={errors.amount?.message}
          />
          <MoneyField
            id="change-loan-balance"
            label={t`Balance (optional)`}
            input={register('balance')}
            error={errors.balance?.message}
          />
        </div>
        <SelectField id="change-loan-status" label={t`Status`} select={register('status')}>
          <option value="">{t`Leave as it is`}</option>
          <StatusOptions />
        </SelectField>
        <SelectField id="change-loan-next" label={t`Next payment`} select={register('nextPayment')}>
          <option value="keep">{t`Leave as it is`}</option>
          <option value="set">{t`Set a date and amount`}</option>
          <option value="none">{t`No next payment`}</option>
        </SelectField>
        {settingNext && (
          <div className="console-form__row">
            <DateField
              id="change-loan-next-due"
              label={t`Due on`}
              input={register('nextDueOn')}
              error={errors.nextDueOn?.message}
            />
            <MoneyField
              id="change-loan-next-amount"
              label={t`Amount`}
              input={register('nextAmount')}
              error={errors.nextAmount?.message}
            />
          </div>
        )}
        <ReasonField
          id="change-loan-reason"
          required={false}
          input={register('reason')}
          error={errors.reason?.message}
        />
        <div className="console-actions">
          <BusyButton busy={isSubmitting} busyText={t`Changing the loan`} className="button button--primary">
            <Trans>Change loan</Trans>
          </BusyButton>
        </div>
      </form>
    </ConsoleSection>
  );
}
