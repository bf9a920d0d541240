import { AuditReasonSchema } from '@customer-core/contracts';
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { ComponentPropsWithRef } from 'react';
import { FieldHint, fieldHintId } from '../../components/field-hint';
import { FormField, fieldErrorId } from '../../components/form-field';

const REASON_REQUIRED = msg`Give a reason: it’s kept in the audit trail with this action.`;

/** The reason typed, checked as the API checks it: null when it will do, else what to fix. */
export function reasonProblem(reason: string, required: boolean, i18n: I18n): string | null {
  if (required && !reason.trim()) return i18n._(REASON_REQUIRED);
  const checked = AuditReasonSchema.safeParse(reason);
  return checked.success ? null : (checked.error.issues[0]?.message ?? null);
}

interface ReasonFieldProps {
  id: string;
  required: boolean;
  /** What react-hook-form's register answers, or a controlled input's value and onChange. */
  input: Omit<ComponentPropsWithRef<'input'>, 'id' | 'type'>;
  error: string | null | undefined;
}

/** Why the action is taken: one line, kept in the audit trail with it (the audit-reason header). */
export function ReasonField({ id, required, input, error }: ReasonFieldProps) {
  const { t } = useLingui();
  const describedBy = [error && fieldErrorId(id), fieldHintId(id)].filter(Boolean).join(' ');
  return (
    <FormField id={id} label={required ? t`Reason` : t`Reason (optional)`} error={error ?? undefined}>
      <FieldHint fieldId={id}>{t`One line, kept in the audit trail with this action.`}</FieldHint>
      <input
        {...input}
        id={id}
        type="text"
        className="text-input"
        maxLength={500}
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        aria-required={required || undefined}
        data-testid="reason-field"
      />
    </FormField>
  );
}
