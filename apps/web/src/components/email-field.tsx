import { useLingui } from '@lingui/react/macro';
import type { ComponentPropsWithRef } from 'react';
import { FormField, fieldErrorId } from './form-field';

type InputProps = Omit<ComponentPropsWithRef<'input'>, 'id' | 'type'>;

interface EmailFieldProps {
  id: string;
  input: InputProps;
  error?: string | undefined;
}

/** The e-mail field of the sign-in form and of the screens that ask for the same address. */
export function EmailField({ id, input, error }: EmailFieldProps) {
  const { t } = useLingui();
  return (
    <FormField id={id} label={t`Email`} error={error}>
      <input
        {...input}
        id={id}
        className="text-input"
        type="email"
        autoComplete={input.autoComplete ?? 'username'}
        inputMode="email"
        autoCapitalize="none"
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? fieldErrorId(id) : undefined}
      />
    </FormField>
  );
}
