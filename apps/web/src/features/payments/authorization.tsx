import type { Locale } from '@customer-core/contracts';
import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { FieldError, fieldErrorId } from '../../components/form-field';

interface AuthorizationProps {
  /** The checkbox's id (its error's is made from it). */
  id: string;
  /** The exact words whose fingerprint is sent: shown as they are, nothing added. */
  text: string;
  lang: Locale;
  input: UseFormRegisterReturn;
  error: string | undefined;
  /** The checkbox's label: "I authorize this debit". */
  children: ReactNode;
}

/** The debit authorization the borrower accepts: its words in a box of their own, then the checkbox. */
export function Authorization({ id, text, lang, input, error, children }: AuthorizationProps) {
  const textId = `${id}-text`;
  return (
    <div className="pay-authorization">
      <h3 className="pay-authorization__title" id={`${id}-title`}>
        <Trans>Authorization</Trans>
      </h3>
      <p className="pay-authorization__text" id={textId} lang={lang} data-testid="authorization-text">
        {text}
      </p>
      <div className="pay-checkbox-group">
        <div className={`pay-checkbox${error ? ' pay-checkbox--invalid' : ''}`}>
          <input
            {...input}
            id={id}
            type="checkbox"
            aria-invalid={error ? true : undefined}
            aria-describedby={[error && fieldErrorId(id), textId].filter(Boolean).join(' ')}
          />
          <label htmlFor={id}>{children}</label>
        </div>
        {error && <FieldError id={id} message={error} />}
      </div>
    </div>
  );
}
