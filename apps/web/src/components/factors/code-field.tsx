import { useLingui } from '@lingui/react/macro';
import { useRef, type ChangeEvent } from 'react';
import { FormField, fieldErrorId } from '../form-field';
import { useFocusOnRefusal } from './focus-on-refusal';

export const CODE_LENGTH = 6;

interface CodeFieldProps {
  id: string;
  value: string;
  onChange(value: string): void;
  error?: string | undefined;
  disabled?: boolean;
}

/**
 * A one-time code: the numeric keyboard on phones, the code offered by the phone's autofill, and a
 * pasted code kept to its digits ("123 456" and "123-456" both work).
 */
export function CodeField({ id, value, onChange, error, disabled }: CodeFieldProps) {
  const { t } = useLingui();
  const input = useRef<HTMLInputElement>(null);
  useFocusOnRefusal(input, error, disabled ?? false);
  const onInput = (event: ChangeEvent<HTMLInputElement>) =>
    onChange(event.target.value.replace(/\D/g, '').slice(0, CODE_LENGTH));
  return (
    <FormField id={id} label={t`6-digit code`} error={error}>
      <input
        ref={input}
        id={id}
        className="text-input factor-code"
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={CODE_LENGTH + 2}
        value={value}
        onChange={onInput}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? fieldErrorId(id) : undefined}
      />
    </FormField>
  );
}
