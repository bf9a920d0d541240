import { sql, type Kysely } from 'kysely';
import { SIGNING_KEYS_NAME } from '../src/provider-key-repository.js';

/**
 * The provider makes its RSA signing key on its first start on a database: a fifth of a second of
 * CPU. A test process starts dozens of providers, each on a fresh database, so the key the first one
 * made is put in the next ones' databases, where the provider reads it as after a restart (each keeps
 * its own issuer, so a token of one is no token of another). The key is stored sealed: one reuse per
 * key ring, so a provider only ever gets a key sealed with the secrets it opens them with.
 */
export function signingKeyReuse() {
  let kept: string | undefined;
  return {
    /** Puts the kept key in a fresh database, before its provider starts; nothing until one is kept. */
    async provide<DB>(db: Kysely<DB>): Promise<void> {
      if (kept === undefined) return;
      await sql`insert into idp_key (name, material) values (${SIGNING_KEYS_NAME}, ${kept}::jsonb)
                on conflict (name) do nothing`.execute(db);
    },
    /** Keeps the key the provider on this database made, if none is kept yet. */
    async keep<DB>(db: Kysely<DB>): Promise<void> {
      if (kept !== undefined) return;
      const { rows } = await sql<{ material: string }>`select material::text as material from idp_key
                                                       where name = ${SIGNING_KEYS_NAME}`.execute(db);
      kept = rows[0]?.material;
    },
    /** Whether a key is kept, to be provided. */
    get holding(): boolean {
      return kept !== undefined;
    },
  };
}
