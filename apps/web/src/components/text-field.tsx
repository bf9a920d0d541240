import type { ComponentPropsWithRef, ReactNode } from 'react';
import { FieldHint, fieldHintId } from './field-hint';
import { FormField, fieldErrorId } from './form-field';

type InputProps = Omit<ComponentPropsWithRef<'input'>, 'id'>;

interface TextFieldProps {
  id: string;
  label: string;
  /** What react-hook-form's register answers, plus the input's own attributes (autoComplete…). */
  input: InputProps;
  error?: string | undefined;
  hint?: ReactNode;
}

/** A labelled one-line text field: the label, a hint, the input and, under it, its validation message. */
export function TextField({ id, label, input, error, hint }: TextFieldProps) {
  const describedBy = [error && fieldErrorId(id), hint && fieldHintId(id)].filter(Boolean).join(' ');
  return (
    <FormField id={id} label={label} error={error}>
      {hint && <FieldHint fieldId={id}>{hint}</FieldHint>}
      <input
        type="text"
        {...input}
        id={id}
        className="text-input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
      />
    </FormField>
  );
}
