import type { Kysely } from 'kysely';
import type { ApiDatabase } from '../db/schema.js';
import type { IdTokenUse } from './id-token-verifier.js';

/**
 * The ID tokens already exchanged for a product session, shared by every instance through the
 * database, each kept until it expires (then the maintenance purge deletes it).
 */
export function exchangedIdTokenRepository(db: Kysely<ApiDatabase>) {
  return {
    /**
     * Marks the ID token as exchanged. One statement, so of any number of concurrent exchanges of one
     * token, on any instance, exactly one gets true.
     */
    async spend(use: IdTokenUse): Promise<boolean> {
      const row = await db
        .insertInto('exchanged_id_token')
        .values({ token_hash: use.hash, expires_at: new Date(use.acceptedUntil * 1000) })
        .onConflict((oc) => oc.column('token_hash').doNothing())
        .returning('token_hash')
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}

export type ExchangedIdTokenRepository = ReturnType<typeof exchangedIdTokenRepository>;
