import { sql } from 'kysely';
import { openDatabase, type DatabaseLocation } from '@customer-core/database';
import type { RunningServer } from '../src/server.js';

// The bundled identity provider makes its RSA signing key on its first start on a database: a fifth of
// a second of CPU. A test process starts dozens of servers, each on an emptied database, so the key the
// first one made (sealed with the process's TEST_SECRETS_KEYS) is put in the next ones' databases,
// where the provider reads it as after a restart. Each server still has its own issuer, so a token of
// one is no token of another.

const NAME = 'oidc-signing-keys';

/** The first key made in this process, as stored (sealed). */
let kept: string | undefined;

/** Puts the process's signing key in a fresh database, if one was made and the location can be reached before the server opens it. */
export async function provideSigningKey(location: DatabaseLocation): Promise<void> {
  // A PGlite location without an instance is a new instance for whoever opens it: nothing to share.
  if (kept === undefined || (location.kind === 'pglite' && !location.instance)) return;
  const db = openDatabase(location);
  try {
    await sql`insert into idp_key (name, material) values (${NAME}, ${kept}::jsonb)
              on conflict (name) do nothing`.execute(db);
  } finally {
    await db.destroy();
  }
}

/** Keeps the signing key the server's identity provider made, if it is the first of the process. */
export async function keepSigningKey(server: RunningServer): Promise<void> {
  if (kept !== undefined || !server.identityProvider) return;
  const row = await sql<{ material: string }>`select material::text as material from idp_key
                                              where name = ${NAME}`.execute(server.db);
  kept = row.rows[0]?.material;
}
