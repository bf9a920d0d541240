import { embeddedUser } from '../../authn-route.js';
import type { IdpUser } from '../../user-repository.js';
import type { AuthnTransaction } from '../authn-transaction-repository.js';
import type { Factor } from '../factor-repository.js';
import { AUTHN_CANCEL_PATH, factorVerifyPath, post, transactionHead } from '../transaction-bodies.js';
import { WEBAUTHN_TIMEOUT_MS } from './relying-party.js';
import type { WebauthnCredential } from './webauthn-repository.js';

/**
 * MFA_CHALLENGE for a WebAuthn factor, as Okta answers its first verify (okta-signin-widget's
 * recorded MFA_CHALLENGE_webauthn): the challenge under the factor, the credential in its profile,
 * and `next` (verify) for the assertion. userVerification and timeout are this provider's additions.
 */
export function webauthnChallengeBody(
  orgUrl: string,
  stateToken: string,
  transaction: AuthnTransaction,
  user: IdpUser,
  factor: Factor,
  credential: WebauthnCredential,
  challenge: string,
) {
  return {
    ...transactionHead(stateToken, transaction),
    _embedded: {
      user: embeddedUser(user),
      factor: {
        id: factor.id,
        factorType: factor.factorType,
        provider: factor.provider,
        vendorName: factor.provider,
        profile: { credentialId: credential.credentialId, authenticatorName: credential.name },
        _embedded: {
          challenge: {
            challenge,
            extensions: {},
            userVerification: 'required',
            timeout: WEBAUTHN_TIMEOUT_MS,
          },
        },
      },
      policy: {
        allowRememberDevice: false,
        rememberDeviceLifetimeInMinutes: 0,
        rememberDeviceByDefault: false,
      },
    },
    _links: {
      next: { name: 'verify', ...post(`${orgUrl}${factorVerifyPath(factor.id)}`) },
      cancel: post(`${orgUrl}${AUTHN_CANCEL_PATH}`),
    },
  };
}
