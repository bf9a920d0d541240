import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { consoleEndpoints, type StaffRole } from '@customer-core/contracts';
import { completeSignInWithSessionToken, type TestServer } from '../../testing/index.js';
import { json, post } from './session.js';

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

/** A staff user of the bundled provider in the group of `role`, who has not signed in yet. */
export async function addStaffUser(
  server: TestServer,
  role: StaffRole,
  login = `staff-${randomUUID()}@lender.example`,
) {
  const idp = server.server.identityProvider!;
  const user = await idp.users.create({
    login,
    password: STAFF_PASSWORD,
    firstName: role === 'admin' ? 'Alma' : 'Sam',
    lastName: 'Okafor',
    groups: [role],
  });
  return { id: user.id, login };
}

/**
 * A staff member's first sign-in, as the console makes it: the password, the authenticator app the
 * provider asks them to add, the ID token, and the console's sign-in. The console token's answer.
 */
export async function staffSignIn(
  server: TestServer,
  login: string,
  provider: { url: string; clientId?: string } = { url: server.baseUrl },
) {
  return consoleSignIn(server, await staffIdToken(server, login, provider));
}

/** The ID token of a staff member's first sign-in (password, then the authenticator app they add). */
export async function staffIdToken(
  server: TestServer,
  login: string,
  /** The identity provider: the bundled one, or a hosted org (its URL and the portal's client id there). */
  provider: { url: string; clientId?: string } = { url: server.baseUrl },
) {
  const url = provider.url;
  const follow = async (href: string, body: unknown) => {
    const { status, body: answer } = await json<Authn>(await post(url, new URL(href, url).pathname, body));
    assert.equal(status, 200, JSON.stringify(answer));
    return answer;
  };
  const enrol = await follow('/api/v1/authn', { username: login, password: STAFF_PASSWORD });
  assert.equal(enrol.status, 'MFA_ENROLL', 'staff are asked for a second factor');
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
  assert.equal(done.status, 'SUCCESS');
  const tokens = await completeSignInWithSessionToken(
    url,
    done.sessionToken!,
    provider.clientId,
    server.baseUrl,
  );
  assert.ok(tokens);
  return tokens.idToken;
}

export async function consoleSignIn(server: TestServer, idToken: string) {
  return json<{ accessToken: string; staff: { role: string; email: string }; error?: string }>(
    await post(server.baseUrl, consoleEndpoints.signIn.path, { idToken }),
  );
}

/** A signed-in staff member of `role`: their console token. */
export async function staffToken(
  server: TestServer,
  role: StaffRole,
): Promise<{ token: string; login: string; id: string }> {
  const user = await addStaffUser(server, role);
  const signedIn = await staffSignIn(server, user.login);
  assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
  return { token: signedIn.body.accessToken, ...user };
}
