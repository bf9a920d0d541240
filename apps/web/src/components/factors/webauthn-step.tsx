import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { useState } from 'react';
import { BusyButton } from '../busy-button';
import { errorCodeOf, LOCKED, STEP_EXPIRED } from './factor-errors';

/** Okta's WebAuthn factor: a passkey or a security key. */

const NOT_USED = msg`We didn’t get your passkey. Try again when you’re ready.`;
const REFUSED = msg`That passkey didn’t work. Try again, or use another way to verify.`;

type Verify = (options?: object) => Promise<AuthnTransaction>;

/** The state token the transaction is at now: okta-auth-js keeps it in `data` only. */
export const stateTokenOf = (transaction: AuthnTransaction) =>
  (transaction as { data?: { stateToken?: string } }).data?.stateToken;

interface ChallengeFactor {
  profile?: { credentialId?: string };
  challenge?: { challenge?: string; userVerification?: string; timeout?: number };
}

/**
 * Okta's WebAuthn verification in the Classic API: the factor's verify asks for a challenge
 * (MFA_CHALLENGE), the browser signs it, and the transaction's verify takes clientData,
 * authenticatorData and signatureData. @simplewebauthn/browser loads on the borrower's press.
 */
async function verifyWithPasskey(
  verify: Verify,
  stateToken: string | undefined,
  onStateToken: (token: string) => void,
) {
  const challenged = await verify(stateToken ? { stateToken } : undefined);
  const token = stateTokenOf(challenged);
  if (token) onStateToken(token);
  const factor = challenged.factor as ChallengeFactor | undefined;
  const challenge = factor?.challenge?.challenge;
  if (challenged.status !== 'MFA_CHALLENGE' || !challenge || !challenged.verify)
    throw new Error(`unexpected ${challenged.status}`);
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const assertion = await startAuthentication({
    optionsJSON: {
      challenge,
      userVerification: 'required',
      timeout: factor.challenge?.timeout,
      allowCredentials: factor.profile?.credentialId
        ? [{ id: factor.profile.credentialId, type: 'public-key' }]
        : [],
    },
  });
  return challenged.verify({
    stateToken: token,
    clientData: assertion.response.clientDataJSON,
    authenticatorData: assertion.response.authenticatorData,
    signatureData: assertion.response.signature,
  });
}

interface WebauthnStepProps {
  /** The webauthn factor's verify (from MFA_REQUIRED). */
  verify: Verify;
  /** The current state token, shared with the other factor's form. */
  stateToken: string | undefined;
  onStateToken(token: string): void;
  onSuccess(transaction: AuthnTransaction): Promise<void>;
  onRestart(message?: string): void;
}

/** "Use your passkey": one press, the browser's prompt, and the sign-in goes on. */
export function WebauthnStep({ verify, stateToken, onStateToken, onSuccess, onRestart }: WebauthnStepProps) {
  const { t, i18n } = useLingui();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<MessageDescriptor>();

  async function start() {
    setPending(true);
    setError(undefined);
    try {
      const done = await verifyWithPasskey(verify, stateToken, onStateToken);
      if (done.status === 'SUCCESS') {
        await onSuccess(done);
        return;
      }
      throw new Error(`unexpected ${done.status}`);
    } catch (failure) {
      setPending(false);
      const errorCode = errorCodeOf(failure);
      const name = (failure as { name?: unknown } | null)?.name;
      if (errorCode === 'E0000068') setError(REFUSED);
      else if (errorCode === 'E0000011') onRestart(i18n._(STEP_EXPIRED));
      else if (errorCode === 'E0000069') onRestart(i18n._(LOCKED));
      else if (name === 'NotAllowedError' || name === 'AbortError' || errorCodeOf(failure) === undefined)
        setError(NOT_USED);
      else onRestart(i18n._(LOCKED));
    }
  }

  return (
    <div className="factor-step__form">
      <p className="factor-step__intro">
        <Trans>Use the passkey on this device, or your security key, to finish signing in.</Trans>
      </p>
      {error && (
        <p className="form-field__error" role="alert" data-testid="passkey-error">
          {i18n._(error)}
        </p>
      )}
      <BusyButton
        type="button"
        busy={pending}
        busyText={t`Waiting for your passkey…`}
        onClick={() => void start()}
        data-testid="use-passkey"
      >
        <Trans>Use my passkey</Trans>
      </BusyButton>
    </div>
  );
}
