import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { consoleEndpoints, type StaffRole } from '@customer-core/contracts';
import { STAFF_PASSWORD, staffIdToken, type TestServer } from '../../testing/index.js';
import { json, post } from './session.js';

export { STAFF_PASSWORD, staffIdToken };

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
