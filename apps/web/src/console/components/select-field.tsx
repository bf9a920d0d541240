import type { ComponentPropsWithRef, ReactNode } from 'react';
import { FieldHint, fieldHintId } from '../../components/field-hint';
import { FormField, fieldErrorId } from '../../components/form-field';

interface SelectFieldProps {
  id: string;
  label: string;
  /** What react-hook-form's register answers, or a controlled select's value and onChange. */
  select: Omit<ComponentPropsWithRef<'select'>, 'id'>;
  error?: string | undefined;
  hint?: ReactNode;
  children: ReactNode;
}

/** A labelled choice from a list: the label, a hint, the select and its validation message. */
export function SelectField({ id, label, select, error, hint, children }: SelectFieldProps) {
  const describedBy = [error && fieldErrorId(id), hint && fieldHintId(id)].filter(Boolean).join(' ');
  return (
    <FormField id={id} label={label} error={error}>
      {hint && <FieldHint fieldId={id}>{hint}</FieldHint>}
      <select
        {...select}
        id={id}
        className="text-input console-select"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
      >
        {children}
      </select>
    </FormField>
  );
}
