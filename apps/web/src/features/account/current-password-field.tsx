import type { Ref } from 'react';
import { FormField, fieldErrorId } from '../../components/form-field';
import { PasswordInput } from '../../components/password-input';

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
  return (
    <FormField id={id} label="Current password" error={error ?? undefined}>
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
