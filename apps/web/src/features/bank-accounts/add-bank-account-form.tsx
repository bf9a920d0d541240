import {
  AddBankAccountRequestSchema,
  BANK_ACCOUNT_TYPES,
  type AddBankAccountRequest,
  type BankAccount,
} from '@customer-core/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { Banner } from '../../components/banner';
import { FieldError, fieldErrorId } from '../../components/form-field';
import { FormActions } from '../../components/form-actions';
import { StepUpDialog } from '../../components/step-up/step-up-dialog';
import { TextField } from '../../components/text-field';
import { addBankAccount } from './bank-accounts-api';
import { typeLabel } from './bank-account-words';

type Input = z.input<typeof AddBankAccountRequestSchema>;

const SUBMIT_ID = 'bank-account-add-submit';
const TYPE_ID = 'bank-account-type';

// The contract's words for two account numbers that differ, as its own check writes them.
const MISMATCH = AddBankAccountRequestSchema.safeParse({
  holderName: 'x',
  routingNumber: '021000021',
  accountNumber: '1234',
  accountNumberAgain: '1235',
  type: 'checking',
}).error?.issues[0]?.message;

/**
 * The contract's schema, which checks that the account numbers match only once every other field
 * passes: here they are compared whatever else is wrong, so that both are said at once.
 */
const schemaResolver = zodResolver(AddBankAccountRequestSchema);
const resolver: Resolver<Input, unknown, AddBankAccountRequest> = async (values, context, options) => {
  const result = await schemaResolver(values, context, options);
  const numbers = [values.accountNumber.trim(), values.accountNumberAgain.trim()];
  if (MISMATCH && !result.errors.accountNumberAgain && numbers[1] && numbers[0] !== numbers[1])
    return {
      values: {},
      errors: { ...result.errors, accountNumberAgain: { type: 'custom', message: MISMATCH } },
    };
  return result;
};

interface AddBankAccountFormProps {
  onAdded(account: BankAccount): void;
  onCancel(): void;
}

/**
 * Adding a business bank account: the name on it, the routing and account numbers (the latter
 * twice), checking or savings; the contract's checks, each field's as it is left. A sign-in too old
 * for it opens the step-up dialog over the form, which keeps what was typed, and the request is made
 * again.
 */
export function AddBankAccountForm({ onAdded, onCancel }: AddBankAccountFormProps) {
  const { t, i18n } = useLingui();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Input, unknown, AddBankAccountRequest>({
    resolver,
    // Each field's check as the borrower leaves it (the routing number's check digit), then as they type.
    mode: 'onTouched',
    defaultValues: {
      holderName: '',
      routingNumber: '',
      accountNumber: '',
      accountNumberAgain: '',
      type: 'checking',
    },
  });
  const [failure, setFailure] = useState<string | null>(null);
  const [stepUp, setStepUp] = useState(false);
  const [retrying, setRetrying] = useState(false);
  // What was sent when the API asked for a recent sign-in: sent again once the borrower has confirmed.
  const sent = useRef<AddBankAccountRequest | null>(null);

  const send = async (request: AddBankAccountRequest) => {
    setFailure(null);
    sent.current = request;
    const outcome = await addBankAccount(request);
    switch (outcome.kind) {
      case 'added':
        return onAdded(outcome.account);
      case 'step-up':
        return setStepUp(true);
      case 'invalid':
        return setError(outcome.field, { type: 'server', message: outcome.message }, { shouldFocus: true });
      case 'failed':
        return setFailure(outcome.message);
    }
  };

  const retry = async () => {
    if (!sent.current) return;
    setRetrying(true);
    await send(sent.current);
    setRetrying(false);
  };

  const busy = isSubmitting || retrying;
  const field = (name: keyof Input) => ({ ...register(name), readOnly: busy });
  return (
    <>
      <form
        className="bank-accounts__add-form"
        onSubmit={(event) => void handleSubmit(send)(event)}
        noValidate
        aria-labelledby="bank-accounts-add-title"
        data-testid="bank-account-add-form"
      >
        {failure && (
          <Banner type="error" onDismiss={() => setFailure(null)} testId="bank-account-add-problem">
            {failure}
          </Banner>
        )}
        <TextField
          id="bank-account-holder"
          label={t`Name on the account`}
          hint={t`Your business’s name, as your bank has it.`}
          error={errors.holderName?.message}
          input={{ ...field('holderName'), autoComplete: 'organization', maxLength: 22 }}
        />
        <TextField
          id="bank-account-routing"
          label={t`Routing number`}
          hint={t`9 digits. Your bank’s app or website shows it with your account number.`}
          error={errors.routingNumber?.message}
          input={{
            ...field('routingNumber'),
            inputMode: 'numeric',
            autoComplete: 'off',
            maxLength: 9,
            spellCheck: false,
          }}
        />
        <TextField
          id="bank-account-number"
          label={t`Account number`}
          hint={t`4 to 17 digits.`}
          error={errors.accountNumber?.message}
          input={{
            ...field('accountNumber'),
            inputMode: 'numeric',
            autoComplete: 'off',
            maxLength: 17,
            spellCheck: false,
          }}
        />
        <TextField
          id="bank-account-number-again"
          label={t`Account number again`}
          error={errors.accountNumberAgain?.message}
          input={{
            ...field('accountNumberAgain'),
            inputMode: 'numeric',
            autoComplete: 'off',
            maxLength: 17,
            spellCheck: false,
          }}
        />
        <fieldset
          className="bank-accounts__types"
          aria-describedby={errors.type ? fieldErrorId(TYPE_ID) : undefined}
        >
          <legend className="bank-accounts__legend">
            <Trans>Account type</Trans>
          </legend>
          {BANK_ACCOUNT_TYPES.map((type) => (
            <label key={type} className="bank-accounts__type">
              <input type="radio" value={type} {...register('type')} disabled={busy} />
              {typeLabel(type, i18n)}
            </label>
          ))}
          {errors.type?.message && <FieldError id={TYPE_ID} message={errors.type.message} />}
        </fieldset>
        <p className="bank-accounts__add-note">
          <Trans>
            Once it’s added, we show only the last four digits of the account number. We’ll send two small
            deposits to the account to check that it’s yours.
          </Trans>
        </p>
        <FormActions
          id={SUBMIT_ID}
          testId="bank-account-add-submit"
          busy={busy}
          busyText={t`Adding the bank account…`}
          onCancel={onCancel}
        >
          <Trans>Add bank account</Trans>
        </FormActions>
      </form>
      {stepUp && (
        <StepUpDialog
          message={t`To add a bank account, confirm it’s you.`}
          confirmLabel={t`Confirm and add account`}
          factorMessage={t`One more step before you add it.`}
          onConfirmed={() => {
            setStepUp(false);
            void retry();
          }}
          onCancel={() => setStepUp(false)}
          returnFocusId={SUBMIT_ID}
        />
      )}
    </>
  );
}
