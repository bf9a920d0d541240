import { VerifyBankAccountRequestSchema, type BankAccount } from '@customer-core/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { BusyButton } from '../../components/busy-button';
import { MessageWithPhone } from '../../components/message-with-phone';
import { TextField } from '../../components/text-field';
import { microAmountCents } from './micro-amount';
import { verifyBankAccount } from './bank-accounts-api';

// The two amounts as typed, each read as cents (micro-amount.ts) and checked with the contract's rule.
const { firstAmountCents, secondAmountCents } = VerifyBankAccountRequestSchema.shape;
const VerifyFormSchema = z.object({
  first: z.string().transform(microAmountCents).pipe(firstAmountCents),
  second: z.string().transform(microAmountCents).pipe(secondAmountCents),
});
const resolver = zodResolver(VerifyFormSchema);

export type VerifyResult =
  | { kind: 'verified'; account: BankAccount }
  /** Not the amounts sent, or the account is gone: the screen loads the list again and says so. */
  | { kind: 'wrong-amounts' }
  | { kind: 'gone'; message: string };

interface VerifyFormProps {
  account: BankAccount;
  /** The id of the account's name, which the form is described by. */
  nameId: string;
  onDone(result: VerifyResult): void;
}

/**
 * The two micro-deposit amounts of a pending account, in cents ("17") or dollars ("$0.17"); the
 * tries left under them. A wrong pair says so under the first amount, which takes the focus.
 */
export function VerifyForm({ account, nameId, onDone }: VerifyFormProps) {
  const { t } = useLingui();
  const id = `verify-${account.id}`;
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof VerifyFormSchema>, unknown, z.output<typeof VerifyFormSchema>>({
    resolver,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: { first: '', second: '' },
  });
  const triesLeft = account.triesLeft;

  const onSubmit = handleSubmit(async ({ first, second }) => {
    const outcome = await verifyBankAccount(account.id, {
      firstAmountCents: first,
      secondAmountCents: second,
    });
    if (outcome.kind === 'failed') {
      setError('root', { message: outcome.message });
      return;
    }
    const left = triesLeft - 1;
    // The last try: the account is refused, and its row says what to do instead of this form.
    if (outcome.kind === 'wrong-amounts' && left > 0) {
      const message = plural(left, {
        one: 'Those aren’t the amounts we sent. You have # try left.',
        other: 'Those aren’t the amounts we sent. You have # tries left.',
      });
      setError('first', { type: 'wrong', message }, { shouldFocus: true });
    }
    onDone(outcome);
  });

  const hint = t`For example, 17 or $0.17.`;
  return (
    <form
      className="bank-account__verify"
      onSubmit={(event) => void onSubmit(event)}
      noValidate
      aria-labelledby={`${id}-title`}
      aria-describedby={nameId}
      data-testid="bank-account-verify"
    >
      <h4 id={`${id}-title`} className="bank-account__verify-title">
        <Trans>Enter the two deposit amounts</Trans>
      </h4>
      <p className="bank-account__verify-intro">
        <Trans>
          Look for two small deposits from us on your bank statement or in your bank’s app, and enter their
          amounts in any order.
        </Trans>
      </p>
      <div className="bank-account__amounts">
        <TextField
          id={`${id}-first`}
          label={t`First amount`}
          hint={hint}
          error={errors.first?.message}
          input={{
            ...register('first'),
            inputMode: 'decimal',
            autoComplete: 'off',
            maxLength: 10,
            readOnly: isSubmitting,
          }}
        />
        <TextField
          id={`${id}-second`}
          label={t`Second amount`}
          hint={hint}
          error={errors.second?.message}
          input={{
            ...register('second'),
            inputMode: 'decimal',
            autoComplete: 'off',
            maxLength: 10,
            readOnly: isSubmitting,
          }}
        />
      </div>
      <p className="bank-account__tries" data-testid="bank-account-tries">
        <Plural value={triesLeft} one="You have # try left." other="You have # tries left." />
      </p>
      {errors.root?.message && (
        <p className="form-field__error" role="alert" data-testid="bank-account-verify-problem">
          <MessageWithPhone message={errors.root.message} />
        </p>
      )}
      <div className="form-actions">
        <BusyButton
          busy={isSubmitting}
          busyText={t`Checking the amounts…`}
          className="button button--primary"
          data-testid="bank-account-verify-submit"
        >
          <Trans>Verify account</Trans>
        </BusyButton>
      </div>
    </form>
  );
}
