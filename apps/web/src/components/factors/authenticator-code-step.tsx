import { Trans, useLingui } from '@lingui/react/macro';
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
  const { t } = useLingui();
  return (
    <AppCodeForm
      intro={
        <p className="factor-step__intro">
          <Trans>Open your authenticator app and enter the 6‑digit code it shows.</Trans>
        </p>
      }
      submit={t`Verify`}
      send={(passCode) => verify({ passCode })}
      code={code}
      onCode={onCode}
      actions={actions}
    />
  );
}
