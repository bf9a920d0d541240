import { useLingui } from '@lingui/react/macro';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import type { FormEvent, ReactNode } from 'react';
import { BusyButton } from '../busy-button';
import { CODE_LENGTH, CodeField } from './code-field';
import { CODE_REQUIRED } from './factor-errors';
import type { FactorStepActions } from './factor-step-actions';

const CODE_FIELD_ID = 'sign-in-factor-code';

interface AppCodeFormProps {
  intro: ReactNode;
  /** The button's words. */
  submit: string;
  /** Sends the code: the factor's verify, or the transaction's activate. */
  send(passCode: string): Promise<AuthnTransaction>;
  code: string;
  onCode(code: string): void;
  actions: FactorStepActions;
}

/** The code an authenticator app shows, checked for its length before it is sent. */
export function AppCodeForm({ intro, submit, send, code, onCode, actions }: AppCodeFormProps) {
  const { t } = useLingui();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== CODE_LENGTH) {
      actions.fail(CODE_REQUIRED);
      return;
    }
    void actions.step(() => send(code));
  };
  return (
    <form className="factor-step__form" onSubmit={onSubmit} noValidate>
      {intro}
      <CodeField
        id={CODE_FIELD_ID}
        value={code}
        onChange={onCode}
        error={actions.error}
        disabled={actions.pending}
      />
      <BusyButton busy={actions.pending} busyText={t`Checking your code…`}>
        {submit}
      </BusyButton>
    </form>
  );
}
