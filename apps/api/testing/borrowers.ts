import type { IdpUser, NewUser } from '@customer-core/idp';
import { borrowerRepository, type BorrowerIdentity } from '../src/borrowers/borrower-repository.js';

import type { TestServer } from './test-server.js';

/**
 * The borrower an identity's first sign-in makes (or takes over), without that sign-in: a test can
 * mint them a session at once. The identity as the identity provider's ID token would name it.
 */
export async function borrowerOfIdentity(server: TestServer, identity: BorrowerIdentity): Promise<string> {
  return (await borrowerRepository(server.server.db).upsertByIdentity(identity)).id;
}

/**
 * A user of the server's bundled identity provider, and the borrower their first sign-in makes of them
 * (as the demo borrower is seeded).
 */
export async function addBorrower(
  server: TestServer,
  user: NewUser,
): Promise<{ user: IdpUser; borrowerId: string }> {
  const { identityProvider } = server.server;
  const issuer = server.config.bundledIdp?.issuer;
  if (!identityProvider || !issuer) throw new Error('addBorrower needs the bundled identity provider');
  const created = await identityProvider.users.create(user);
  const borrowerId = await borrowerOfIdentity(server, {
    issuer,
    subject: created.id,
    email: created.login,
    firstName: created.firstName,
    lastName: created.lastName,
  });
  return { user: created, borrowerId };
}
