import { Secret, TOTP } from 'otpauth';
import { completeSignInWithSessionToken } from './idp-sign-in.js';
import type { TestServer } from './test-server.js';

// A staff member's first sign-in as the console makes it, over HTTP without a browser: the password,
// the authenticator app the provider asks them to add, and the ID token the console exchanges.

/** The password tests give staff users. */
export const STAFF_PASSWORD = 'Staff-Member-Pass-7';

interface Authn {
  status: string;
  stateToken?: string;
  sessionToken?: string;
  _embedded?: {
    factors?: Array<{ _links: { enroll: { href: string } } }>;
    factor?: { _embedded: { activation: { sharedSecret: string } } };
  };
  _links?: { next?: { href: string } };
}

/** The ID token of a staff member's first sign-in (password, then the authenticator app they add). */
export async function staffIdToken(
  server: TestServer,
  login: string,
  /** The identity provider: the bundled one, or a hosted org (its URL and the portal's client id there). */
  provider: { url: string; clientId?: string } = { url: server.baseUrl },
): Promise<string> {
  const url = provider.url;
  const follow = async (href: string, body: unknown): Promise<Authn> => {
    const response = await fetch(new URL(new URL(href, url).pathname, url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as Authn;
    if (response.status !== 200)
      throw new Error(`${href} answered ${response.status}: ${JSON.stringify(answer)}`);
    return answer;
  };
  const enrol = await follow('/api/v1/authn', { username: login, password: STAFF_PASSWORD });
  if (enrol.status !== 'MFA_ENROLL')
    throw new Error(`staff are asked for a second factor, not ${enrol.status}`);
  const activation = await follow(enrol._embedded!.factors![0]!._links.enroll.href, {
    stateToken: enrol.stateToken,
    factorType: 'token:software:totp',
    provider: 'GOOGLE',
  });
  const secret = activation._embedded!.factor!._embedded.activation.sharedSecret;
  const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
  const done = await follow(activation._links!.next!.href, {
    stateToken: activation.stateToken,
    passCode: code,
  });
  if (done.status !== 'SUCCESS') throw new Error(`the factor's first code gave ${done.status}`);
  const tokens = await completeSignInWithSessionToken(
    url,
    done.sessionToken!,
    provider.clientId,
    server.baseUrl,
  );
  if (!tokens) throw new Error('the session token gave no ID token');
  return tokens.idToken;
}
