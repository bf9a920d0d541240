import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import { authEndpoints } from '@customer-core/contracts';
import { completeSignInWithSessionToken } from '../../testing/index.js';
import { json, post } from './session.js';

// The identity provider's factor transaction (Okta's Classic authn states) walked as the portal's
// factor screens walk it: picked up by its state token, an authenticator app enrolled, then the ID
// token exchanged for a product token.

export interface AuthnAnswer {
  status?: string;
  stateToken?: string;
  sessionToken?: string;
  errorCode?: string;
  _embedded?: {
    factors?: Array<{ factorType: string; _links: { enroll: { href: string } } }>;
    factor?: { _embedded: { activation: { sharedSecret: string } } };
  };
  _links?: { next?: { href: string } };
}

/** The authenticator app's code for `secret`, `stepsAhead` 30-second steps from now. */
export const appCode = (secret: string, stepsAhead = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + stepsAhead * 30_000,
  });

/** A POST of the identity provider's API, at a link of one of its answers (or a path). */
export const authnCall = async (baseUrl: string, href: string, body: unknown) =>
  json<AuthnAnswer>(await post(baseUrl, new URL(href, baseUrl).pathname, body));

/**
 * Enrols an authenticator app in the MFA_ENROLL transaction of `stateToken` (introspected first, as
 * okta-auth-js picks a transaction up): the transaction's SUCCESS and the app's secret.
 */
export async function enrolAppIn(baseUrl: string, stateToken: string) {
  const state = await authnCall(baseUrl, '/api/v1/authn/introspect', { stateToken });
  assert.equal(state.status, 200, JSON.stringify(state.body));
  assert.equal(state.body.status, 'MFA_ENROLL');
  const app = state.body._embedded!.factors!.find((f) => f.factorType === 'token:software:totp')!;
  const activation = await authnCall(baseUrl, app._links.enroll.href, {
    stateToken,
    factorType: 'token:software:totp',
    provider: 'GOOGLE',
  });
  assert.equal(activation.body.status, 'MFA_ENROLL_ACTIVATE', JSON.stringify(activation.body));
  const secret = activation.body._embedded!.factor!._embedded.activation.sharedSecret;
  const done = await authnCall(baseUrl, activation.body._links!.next!.href, {
    stateToken: activation.body.stateToken,
    passCode: appCode(secret),
  });
  assert.equal(done.body.status, 'SUCCESS', JSON.stringify(done.body));
  return { sessionToken: done.body.sessionToken!, secret };
}

/** The session token's sign-in completed at the identity provider, its ID token exchanged: the product token. */
export async function productTokenOf(baseUrl: string, sessionToken: string): Promise<string> {
  const tokens = await completeSignInWithSessionToken(baseUrl, sessionToken);
  assert.ok(tokens, 'the identity provider completes the sign-in');
  const exchanged = await json<{ access_token: string }>(
    await post(baseUrl, authEndpoints.tokenExchange.path, { token: tokens.idToken }),
  );
  assert.equal(exchanged.status, 200, JSON.stringify(exchanged.body));
  return exchanged.body.access_token;
}
