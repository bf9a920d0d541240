import { useLingui } from '@lingui/react/macro';
import { useState, type ComponentPropsWithRef } from 'react';
import './password-input.css';

type PasswordInputProps = Omit<ComponentPropsWithRef<'input'>, 'type'>;

/** A password field with a show/hide toggle (spec section 2: 'Show password' / 'Hide password'). */
export function PasswordInput({ className = '', ...inputProps }: PasswordInputProps) {
  const { t } = useLingui();
  const [visible, setVisible] = useState(false);
  return (
    <div className="password-input">
      <input
        {...inputProps}
        type={visible ? 'text' : 'password'}
        className={`text-input ${className}`.trim()}
      />
      <button
        type="button"
        className="password-input__toggle"
        aria-label={visible ? t`Hide password` : t`Show password`}
        aria-controls={inputProps.id}
        onClick={() => setVisible((shown) => !shown)}
        disabled={inputProps.readOnly}
        data-testid="password-visibility-toggle"
      >
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
          <path
            d="M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12Z"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinejoin="round"
          />
          <circle cx="12" cy="12" r="3" fill="none" stroke="currentColor" strokeWidth="1.8" />
          {visible && <path d="m4 4 16 16" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />}
        </svg>
      </button>
    </div>
  );
}
