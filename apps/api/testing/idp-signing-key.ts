import { openDatabase, type DatabaseLocation } from '@customer-core/database';
import { signingKeyReuse } from '@customer-core/idp/testing';
import type { RunningServer } from '../src/server.js';

// The bundled identity provider's signing key, made once per test process (sealed with the process's
// TEST_SECRETS_KEYS) and put in each later server's emptied database: see signingKeyReuse.
const signingKey = signingKeyReuse();

/** Puts the process's signing key in a fresh database, if one was made and the location can be reached before the server opens it. */
export async function provideSigningKey(location: DatabaseLocation): Promise<void> {
  // A PGlite location without an instance is a new instance for whoever opens it: nothing to share.
  if (!signingKey.holding || (location.kind === 'pglite' && !location.instance)) return;
  const db = openDatabase(location);
  try {
    await signingKey.provide(db);
  } finally {
    await db.destroy();
  }
}

/** Keeps the signing key the server's identity provider made, if it is the first of the process. */
export async function keepSigningKey(server: RunningServer): Promise<void> {
  if (server.identityProvider) await signingKey.keep(server.db);
}
