import type { ReactNode } from 'react';
import { fieldHintId } from './field-hint';
import './field-hint.css';
import './form-field.css';
import './read-only-field.css';

interface ReadOnlyFieldProps {
  id: string;
  label: string;
  value: string;
  /** Says why it cannot be changed. */
  hint: ReactNode;
  /**
   * E.g. 'username': a hidden field with the value, so that a password manager saves the new password
   * under it (the shown value is text, which wraps: a long e-mail address is never cut off).
   */
  autoComplete?: string;
}

/** A value the borrower sees but cannot change, where a field would be (marked so, not by colour alone). */
export function ReadOnlyField({ id, label, value, hint, autoComplete }: ReadOnlyFieldProps) {
  const labelId = `${id}-label`;
  return (
    <div className="form-field">
      <p className="form-field__label" id={labelId}>
        {label}
      </p>
      <p
        className="read-only-field"
        id={id}
        role="group"
        aria-labelledby={labelId}
        aria-describedby={fieldHintId(id)}
        data-testid={id}
      >
        <span className="read-only-field__value">
          {/* An e-mail address that must wrap breaks after its @ rather than anywhere. */}
          {value.split('@').map((part, index) => (
            <span key={index}>
              {index > 0 && (
                <>
                  @<wbr />
                </>
              )}
              {part}
            </span>
          ))}
        </span>
        <svg
          className="read-only-field__lock"
          viewBox="0 0 20 20"
          width="18"
          height="18"
          aria-hidden="true"
          focusable="false"
        >
          <rect
            x="4"
            y="9"
            width="12"
            height="8"
            rx="1.5"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
          />
          <path d="M7 9V6.5a3 3 0 0 1 6 0V9" fill="none" stroke="currentColor" strokeWidth="1.6" />
        </svg>
      </p>
      <p className="field-hint" id={fieldHintId(id)}>
        {hint}
      </p>
      {autoComplete && (
        <input
          type="text"
          value={value}
          autoComplete={autoComplete}
          readOnly
          hidden
          data-testid={`${id}-autocomplete`}
        />
      )}
    </div>
  );
}
