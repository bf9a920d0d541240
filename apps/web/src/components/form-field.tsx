import { useLingui } from '@lingui/react';
import type { ReactNode } from 'react';
import { inPortalLanguage } from '../i18n/in-portal-language';
import './form-field.css';

export function fieldErrorId(id: string): string {
  return `${id}-error`;
}

interface FormFieldProps {
  id: string;
  label: string;
  error?: string | undefined;
  /** Shown beside the label, e.g. a "Forgot Password?" link. */
  aside?: ReactNode;
  children: ReactNode;
}

/** A label, the control and, under it, the field's validation message (spec section 5). */
export function FormField({ id, label, error, aside, children }: FormFieldProps) {
  return (
    <div className={`form-field${error ? ' form-field--invalid' : ''}`}>
      <div className="form-field__label-row">
        <label className="form-field__label" htmlFor={id}>
          {label}
        </label>
        {aside}
      </div>
      {children}
      {error && <FieldError id={id} message={error} />}
    </div>
  );
}

/** A control's validation message under it, with the id its aria-describedby names (fieldErrorId). */
export function FieldError({ id, message }: { id: string; message: string }) {
  // A shared schema's message comes in English: shown in the portal's language, and again when it changes.
  useLingui();
  return (
    <p className="form-field__error" id={fieldErrorId(id)} data-testid={fieldErrorId(id)}>
      <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        <path
          fill="currentColor"
          d="M8 0a8 8 0 1 0 0 16A8 8 0 0 0 8 0Zm-.9 3.5h1.8l-.2 6H7.3l-.2-6ZM8 12.6a1.1 1.1 0 1 1 0-2.2 1.1 1.1 0 0 1 0 2.2Z"
        />
      </svg>
      {inPortalLanguage(message)}
    </p>
  );
}
