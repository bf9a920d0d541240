import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState, type FormEvent, type Ref } from 'react';
import { FormField, fieldErrorId } from '../../components/form-field';
import { PasswordInput } from '../../components/password-input';

const PASSWORD_REQUIRED = msg`Enter your current password.`;

interface CurrentPasswordFieldProps {
  id: string;
  value: string;
  /** Shown under the field; typing clears it (onChange). */
  error: string | null;
  onChange(value: string): void;
  ref?: Ref<HTMLInputElement>;
}

/** "Current password", as the account page's sections ask for it before a change. */
export function CurrentPasswordField({ id, value, error, onChange, ref }: CurrentPasswordFieldProps) {
  const { t } = useLingui();
  return (
    <FormField id={id} label={t`Current password`} error={error ?? undefined}>
      <PasswordInput
        ref={ref}
        id={id}
        name="currentPassword"
        autoComplete="current-password"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? fieldErrorId(id) : undefined}
      />
    </FormField>
  );
}

/** What a change confirmed with the current password can come to, short of success. */
export interface PasswordRefusal {
  kind: 'wrong-password' | 'failed';
  message: string;
}

/**
 * The state of a form that confirms a change with the current password (removing a factor, making
 * recovery codes): the field focused when the form opens and after a refusal. `confirm` makes the
 * change and answers nothing once it is done; a wrong password shows under the field, any other
 * problem goes to `onFailed`.
 */
export function usePasswordConfirmation(
  confirm: (password: string) => Promise<PasswordRefusal | undefined>,
  onFailed: (message: string) => void,
) {
  const { i18n } = useLingui();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setError(i18n._(PASSWORD_REQUIRED));
      return input.current?.focus();
    }
    setPending(true);
    const refusal = await confirm(password);
    setPending(false);
    if (refusal?.kind === 'wrong-password') {
      setError(refusal.message);
      return input.current?.focus();
    }
    if (refusal) onFailed(refusal.message);
  };
  const onChange = (value: string) => (setPassword(value), setError(null));

  return { password, onChange, error, pending, input, submit };
}
