import { Trans, useLingui } from '@lingui/react/macro';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { AppCodeForm } from './app-code-form';
import { AuthenticatorSetup } from './authenticator-setup';
import type { FactorStepActions } from './factor-step-actions';

interface AuthenticatorActivationProps {
  /** The app's key, from the provider's activation. */
  secret: string;
  /** The account's name in the app: the borrower's login. */
  accountName: string;
  activate(options: { passCode: string }): Promise<AuthnTransaction>;
  code: string;
  onCode(code: string): void;
  actions: FactorStepActions;
}

/** MFA_ENROLL_ACTIVATE of an authenticator app: its QR code and key, then its first code. */
export function AuthenticatorActivation({
  secret,
  accountName,
  activate,
  code,
  onCode,
  actions,
}: AuthenticatorActivationProps) {
  const { t } = useLingui();
  return (
    <>
      <AuthenticatorSetup secret={secret} accountName={accountName} />
      <AppCodeForm
        intro={
          <p className="factor-step__intro">
            <Trans>Then enter the 6‑digit code your app shows.</Trans>
          </p>
        }
        submit={t`Confirm`}
        send={(passCode) => activate({ passCode })}
        code={code}
        onCode={onCode}
        actions={actions}
      />
    </>
  );
}
