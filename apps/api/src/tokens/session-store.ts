import { sql, type Kysely } from 'kysely';
import type { ApiDatabase } from '../db/schema.js';

/**
 * Which sign-in sessions are over, shared by every instance through the database: a revoked session
 * family (sign-out) or a borrower-wide cut-off (tokens issued before it are refused).
 */
export function sessionStore(db: Kysely<ApiDatabase>) {
  return {
    async revoke(sid: string, borrowerId: string, expiresAt: Date): Promise<void> {
      await db
        .insertInto('revoked_session')
        .values({ sid, borrower_id: borrowerId, expires_at: expiresAt })
        .onConflict((oc) => oc.column('sid').doNothing())
        .execute();
    },

    /** Refuses every token of the borrower issued up to now, on every instance. */
    async revokeAllOf(borrowerId: string): Promise<void> {
      await db
        .updateTable('borrower')
        .set({ tokens_not_before: sql<Date>`now()` })
        .where('id', '=', borrowerId)
        .execute();
    },

    /** One round trip: is this token's session revoked, or was it issued before the borrower's cut-off? */
    async isRevoked(claims: { sid: string; sub: string; iat: number }): Promise<boolean> {
      const { rows } = await sql<{ revoked: boolean; not_before: Date | null; known: boolean }>`
        select
          exists (select 1 from revoked_session where sid = ${claims.sid}) as revoked,
          (select tokens_not_before from borrower where id = ${claims.sub}::uuid) as not_before,
          exists (select 1 from borrower where id = ${claims.sub}::uuid) as known
      `.execute(db);
      const row = rows[0];
      if (!row || row.revoked || !row.known) return true;
      // iat has whole seconds: tokens from seconds before the cut-off are refused, so a sign-in right after
      // a password change (same second) still works.
      return row.not_before !== null && claims.iat < Math.floor(row.not_before.getTime() / 1000);
    },
  };
}

export type SessionStore = ReturnType<typeof sessionStore>;
