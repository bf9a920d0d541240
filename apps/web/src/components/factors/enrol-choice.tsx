import { Trans } from '@lingui/react/macro';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { Spinner } from '../spinner';
import type { FactorStepActions } from './factor-step-actions';

interface EnrolChoiceProps {
  /** Starts adding an authenticator app. */
  enrollApp(): Promise<AuthnTransaction>;
  /** Starts email codes instead, where the provider offers them. */
  enrollEmail: (() => Promise<AuthnTransaction>) | undefined;
  actions: FactorStepActions;
}

/** MFA_ENROLL: a second factor is needed before the sign-in; an authenticator app, or codes by email. */
export function EnrolChoice({ enrollApp, enrollEmail, actions }: EnrolChoiceProps) {
  return (
    <>
      <p className="factor-step__intro">
        <Trans>
          For your security, add an authenticator app to your account. You’ll enter a code from it each time
          you sign in.
        </Trans>
      </p>
      <button
        type="button"
        className="button button--primary button--block"
        disabled={actions.pending}
        onClick={() => void actions.step(enrollApp)}
      >
        {actions.pending && <Spinner />}
        <Trans>Set up an authenticator app</Trans>
      </button>
      {enrollEmail && (
        <button
          type="button"
          className="factor-step__link"
          disabled={actions.pending}
          onClick={() => void actions.step(enrollEmail)}
        >
          <Trans>Get codes by email instead</Trans>
        </button>
      )}
    </>
  );
}
