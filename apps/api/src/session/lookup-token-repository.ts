import { sql, type Kysely } from 'kysely';
import type { ApiDatabase } from '../db/schema.js';
import { newOneTimeToken, oneTimeTokenHash } from '@customer-core/database';

/** Lookup tokens live five minutes: long enough to hand to a browser, short enough to be useless later. */
export const LOOKUP_TOKEN_TTL_SECONDS = 300;

/** One-time tokens a trusted system mints for a borrower, exchanged once for an access token. */
export function lookupTokenRepository(db: Kysely<ApiDatabase>) {
  return {
    async mint(borrowerId: string, mintedBy: string): Promise<{ token: string; expiresAt: Date }> {
      const token = newOneTimeToken();
      const row = await db
        .insertInto('lookup_token')
        .values({
          token_hash: oneTimeTokenHash(token),
          borrower_id: borrowerId,
          minted_by: mintedBy,
          expires_at: sql<Date>`now() + make_interval(secs => ${LOOKUP_TOKEN_TTL_SECONDS})`,
        })
        .returning('expires_at')
        .executeTakeFirstOrThrow();
      return { token, expiresAt: row.expires_at };
    },

    /** Consumes in one statement, so of any number of concurrent redemptions exactly one wins. */
    async consume(token: string): Promise<string | undefined> {
      const row = await db
        .updateTable('lookup_token')
        .set({ consumed_at: sql<Date>`now()` })
        .where('token_hash', '=', oneTimeTokenHash(token))
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`)
        .returning('borrower_id')
        .executeTakeFirst();
      return row?.borrower_id;
    },
  };
}

export type LookupTokenRepository = ReturnType<typeof lookupTokenRepository>;
