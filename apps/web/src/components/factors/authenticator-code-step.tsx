import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { AppCodeForm } from './app-code-form';
import type { FactorStepActions } from './factor-step-actions';

interface AuthenticatorCodeStepProps {
  /** The authenticator app factor's verify. */
  verify(options: { passCode: string }): Promise<AuthnTransaction>;
  code: string;
  onCode(code: string): void;
  actions: FactorStepActions;
}

/** MFA_REQUIRED with the authenticator app: the code it shows now. */
export function AuthenticatorCodeStep({ verify, code, onCode, actions }: AuthenticatorCodeStepProps) {
  return (
    <AppCodeForm
      intro={
        <p className="factor-step__intro">
          Open your authenticator app and enter the 6&#8209;digit code it shows.
        </p>
      }
      submit="Verify"
      send={(passCode) => verify({ passCode })}
      code={code}
      onCode={onCode}
      actions={actions}
    />
  );
}
