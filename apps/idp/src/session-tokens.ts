import { createHash, randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { IdpDatabase } from './schema.js';

/** 256 random bits, base64url: what the browser carries from /api/v1/authn to /v1/authorize. */
function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function createSessionTokenStore(db: Kysely<IdpDatabase>, ttlSeconds: number) {
  return {
    async issue(userId: string): Promise<{ sessionToken: string; expiresAt: Date }> {
      const sessionToken = newToken();
      // Expiry from the database's clock, the same one consume() compares against.
      const row = await db
        .insertInto('idp_session_token')
        .values({
          token_hash: hashSessionToken(sessionToken),
          user_id: userId,
          expires_at: sql<Date>`now() + make_interval(secs => ${ttlSeconds})`,
        })
        .returning('expires_at')
        .executeTakeFirstOrThrow();
      return { sessionToken, expiresAt: row.expires_at };
    },

    /**
     * Redeems the token for the IdP session `sessionUid`: one statement, so of any number of
     * concurrent presentations exactly one gets the user id.
     */
    async consume(token: string, sessionUid: string): Promise<string | undefined> {
      const row = await db
        .updateTable('idp_session_token')
        .set({ consumed_at: sql<Date>`now()`, session_uid: sessionUid })
        .where('token_hash', '=', hashSessionToken(token))
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`)
        .returning('user_id')
        .executeTakeFirst();
      return row?.user_id;
    },

    /**
     * The account that already redeemed this (unexpired) token in IdP session `sessionUid`, if any:
     * okta-auth-js presents the same token again in the full-page redirect after the hidden iframe.
     */
    async redeemedIn(token: string, sessionUid: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('idp_session_token')
        .select('user_id')
        .where('token_hash', '=', hashSessionToken(token))
        .where('consumed_at', 'is not', null)
        .where('session_uid', '=', sessionUid)
        .where('expires_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
      return row?.user_id;
    },

    async revokeAll(userId: string): Promise<void> {
      await db.deleteFrom('idp_session_token').where('user_id', '=', userId).execute();
    },
  };
}

export type SessionTokenStore = ReturnType<typeof createSessionTokenStore>;
