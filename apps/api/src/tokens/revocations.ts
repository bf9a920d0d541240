import type { Kysely } from 'kysely';
import type { ApiDatabase } from '../db/schema.js';

/** Revoked product tokens, by jti, shared by every instance through the database. */
export function revocationStore(db: Kysely<ApiDatabase>) {
  return {
    async revoke(jti: string, borrowerId: string, expiresAt: Date): Promise<void> {
      await db
        .insertInto('revoked_access_token')
        .values({ jti, borrower_id: borrowerId, expires_at: expiresAt })
        .onConflict((oc) => oc.column('jti').doNothing())
        .execute();
    },
    async isRevoked(jti: string): Promise<boolean> {
      const row = await db
        .selectFrom('revoked_access_token')
        .select('jti')
        .where('jti', '=', jti)
        .executeTakeFirst();
      return row !== undefined;
    },
    /** Rows past their token's own expiry prove nothing any more. */
    async purgeExpired(now = new Date()): Promise<void> {
      await db.deleteFrom('revoked_access_token').where('expires_at', '<', now).execute();
    },
  };
}

export type RevocationStore = ReturnType<typeof revocationStore>;
