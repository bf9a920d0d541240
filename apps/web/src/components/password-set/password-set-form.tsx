import { PasswordSetSchema, type PasswordSet } from '@customer-core/contracts';
import { BusyButton } from '../busy-button';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { FormField, fieldErrorId } from '../form-field';
import { PasswordInput } from '../password-input';
import { PasswordChecklist } from './password-checklist';
// The form's layout (field spacing) is the form screens' own; signed-in pages use the form too.
import '../form-screen.css';
import './password-set.css';

const resolver = zodResolver(PasswordSetSchema);

/** What the caller's submit can answer: a message for the password field (e.g. a too-common password). */
export type PasswordSetOutcome = { passwordError: string } | void;

interface PasswordSetFormProps {
  /** Prefix of the field ids, unique on the page. */
  idPrefix: string;
  submitLabel: string;
  /** Announced while the submit is on its way. */
  pendingText: string;
  onSubmit: (values: PasswordSet) => Promise<PasswordSetOutcome>;
  /** A banner above the fields (call failures). */
  banner?: ReactNode;
  /** The fields' labels: a reset sets a new password, registration a first one. */
  passwordLabel?: string;
  confirmLabel?: string;
  /** Shown above the password fields, e.g. the account's read-only e-mail address. */
  children?: ReactNode;
  /** Shown after the confirmation, before the button, e.g. a choice that goes with the change. */
  afterFields?: ReactNode;
  /** A form opened in place (the account page's) has Cancel beside its button, not a full-width button. */
  onCancel?: () => void;
}

const describedBy = (...ids: Array<string | false | undefined>) => ids.filter(Boolean).join(' ') || undefined;

/**
 * The password-set form (spec sections 3 and 5): a new password and its confirmation, with the rules
 * as a live checklist. Used by password reset, registration and the account page's change.
 */
export function PasswordSetForm({
  idPrefix,
  submitLabel,
  pendingText,
  onSubmit,
  banner,
  passwordLabel,
  confirmLabel,
  children,
  afterFields,
  onCancel,
}: PasswordSetFormProps) {
  const { t } = useLingui();
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<PasswordSet>({
    resolver,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: { password: '', confirmPassword: '' },
  });
  const password = useWatch({ control, name: 'password' });

  const passwordId = `${idPrefix}-password`;
  const confirmId = `${idPrefix}-confirm-password`;
  const checklistId = `${idPrefix}-password-rules`;
  const passwordError = errors.password?.message;
  const confirmError = errors.confirmPassword?.message;

  const submit = handleSubmit(async (values) => {
    const outcome = await onSubmit(values);
    if (outcome)
      setError('password', { type: 'server', message: outcome.passwordError }, { shouldFocus: true });
  });

  return (
    <form className="form-screen__form" onSubmit={submit} noValidate>
      {banner}
      {children}
      <div className="password-set__password">
        <FormField id={passwordId} label={passwordLabel ?? t`New password`} error={passwordError}>
          <PasswordInput
            {...register('password')}
            id={passwordId}
            autoComplete="new-password"
            aria-invalid={passwordError ? true : undefined}
            aria-describedby={describedBy(passwordError && fieldErrorId(passwordId), checklistId)}
          />
        </FormField>
        <PasswordChecklist id={checklistId} password={password} />
      </div>
      <FormField id={confirmId} label={confirmLabel ?? t`Confirm new password`} error={confirmError}>
        <PasswordInput
          {...register('confirmPassword')}
          id={confirmId}
          autoComplete="new-password"
          aria-invalid={confirmError ? true : undefined}
          aria-describedby={describedBy(confirmError && fieldErrorId(confirmId))}
        />
      </FormField>
      {afterFields}
      {onCancel ? (
        <div className="form-actions">
          <BusyButton busy={isSubmitting} busyText={pendingText} className="button button--primary">
            {submitLabel}
          </BusyButton>
          <button
            type="button"
            className="button button--secondary"
            onClick={onCancel}
            disabled={isSubmitting}
          >
            <Trans>Cancel</Trans>
          </button>
        </div>
      ) : (
        <BusyButton busy={isSubmitting} busyText={pendingText}>
          {submitLabel}
        </BusyButton>
      )}
    </form>
  );
}
