import { sql, type Kysely } from 'kysely';
import {
  listenForNotifications,
  type DatabaseLocation,
  type NotificationListener,
} from '@customer-core/database';
import type { ApiDatabase } from '../db/schema.js';

/** What the check of an access token needs of its claims. */
interface SessionClaims {
  sid: string;
  sub: string;
  iat: number;
}

/** Told to every instance when a session family or every session of a borrower is revoked. */
type Revocation =
  | { kind: 'session'; sid: string; borrowerId: string; expiresAt: number }
  | { kind: 'borrower'; borrowerId: string; notBefore: number };

const CHANNEL = 'customer_core_revocations';

/**
 * Which sign-in sessions are over, shared by every instance through the database: a revoked session
 * family (sign-out) or a borrower-wide cut-off (tokens issued before it are refused).
 *
 * Every instance keeps what is revoked in memory, so checking an access token costs no query: it loads
 * the tables when it starts listening, and hears each later revocation by NOTIFY, sent in the
 * revoking transaction (the revoking instance applies it at once). While it is not listening (start-up,
 * a lost connection) it asks the database instead. On PGlite there is only this instance.
 */
export function sessionStore(db: Kysely<ApiDatabase>, location: DatabaseLocation) {
  const revokedSessions = new Map<string, number>(); // sid -> when it could no longer be refreshed (ms)
  const notBefore = new Map<string, number>(); // borrower id -> cut-off (seconds since the epoch)
  const knownBorrowers = new Set<string>();
  let current = false;

  // Revocations only add: a cut-off only moves later, whatever order the load and notices come in.
  const setCutOff = (borrowerId: string, cutOff: number) =>
    notBefore.set(borrowerId, Math.max(cutOff, notBefore.get(borrowerId) ?? 0));

  function apply(revocation: Revocation) {
    if (revocation.kind === 'session') revokedSessions.set(revocation.sid, revocation.expiresAt);
    else setCutOff(revocation.borrowerId, revocation.notBefore);
  }

  async function load(): Promise<void> {
    const [sessions, cutOffs] = await Promise.all([
      db
        .selectFrom('revoked_session')
        .select(['sid', 'expires_at'])
        .where('expires_at', '>', new Date())
        .execute(),
      db
        .selectFrom('borrower')
        .select(['id', 'tokens_not_before'])
        .where('tokens_not_before', 'is not', null)
        .execute(),
    ]);
    for (const row of sessions) revokedSessions.set(row.sid, row.expires_at.getTime());
    for (const row of cutOffs) setCutOff(row.id, Math.floor(row.tokens_not_before!.getTime() / 1000));
    current = true;
  }

  const listener: NotificationListener | null =
    location.kind === 'postgres'
      ? listenForNotifications(location.url, CHANNEL, {
          onNotification: (payload) => {
            try {
              apply(JSON.parse(payload) as Revocation);
            } catch {
              // Not a notice of ours: ask the database until the tables are loaded again.
              current = false;
              void load().catch(() => {});
            }
          },
          onListening: load,
          onLost: () => {
            current = false;
          },
        })
      : null;
  // Until loaded (or if loading fails), checks ask the database.
  if (!listener) void load().catch(() => {});
  // Sessions past their end are refused by their tokens' expiry anyway: forget them.
  const prune = setInterval(() => {
    const now = Date.now();
    for (const [sid, expiresAt] of revokedSessions) if (expiresAt <= now) revokedSessions.delete(sid);
  }, 60_000);
  prune.unref();

  async function announce(trx: Kysely<ApiDatabase>, revocation: Revocation) {
    await sql`select pg_notify(${CHANNEL}, ${JSON.stringify(revocation)})`.execute(trx);
    apply(revocation);
  }

  /** One round trip: is this token's session revoked, or was it issued before the borrower's cut-off? */
  async function isRevokedInDatabase(claims: SessionClaims): Promise<boolean> {
    const { rows } = await sql<{ revoked: boolean; not_before: Date | null; known: boolean }>`
      select
        exists (select 1 from revoked_session where sid = ${claims.sid}) as revoked,
        (select tokens_not_before from borrower where id = ${claims.sub}::uuid) as not_before,
        exists (select 1 from borrower where id = ${claims.sub}::uuid) as known
    `.execute(db);
    const row = rows[0];
    if (!row || row.revoked || !row.known) return true;
    knownBorrowers.add(claims.sub);
    return row.not_before !== null && issuedBefore(claims, Math.floor(row.not_before.getTime() / 1000));
  }

  return {
    async revoke(sid: string, borrowerId: string, expiresAt: Date): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('revoked_session')
          .values({ sid, borrower_id: borrowerId, expires_at: expiresAt })
          .onConflict((oc) => oc.column('sid').doNothing())
          .execute();
        await announce(trx, { kind: 'session', sid, borrowerId, expiresAt: expiresAt.getTime() });
      });
    },

    /** Refuses every token of the borrower issued up to now, on every instance. */
    async revokeAllOf(borrowerId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('borrower')
          .set({ tokens_not_before: sql<Date>`now()` })
          .where('id', '=', borrowerId)
          .returning('tokens_not_before')
          .executeTakeFirst();
        if (!row?.tokens_not_before) return;
        const cutOff = Math.floor(row.tokens_not_before.getTime() / 1000);
        await announce(trx, { kind: 'borrower', borrowerId, notBefore: cutOff });
      });
    },

    /**
     * Whether a token issued at `issuedAt` (seconds) for this identity predates the borrower's cut-off
     * (last password change or sign-out everywhere). Asks the database: it is asked once per sign-in.
     */
    async issuedBeforeCutOff(identity: { issuer: string; subject: string }, issuedAt: number) {
      const row = await db
        .selectFrom('borrower')
        .select('tokens_not_before')
        .where('idp_issuer', '=', identity.issuer)
        .where('idp_subject', '=', identity.subject)
        .executeTakeFirst();
      const cutOff = row?.tokens_not_before;
      return !!cutOff && issuedAt < Math.floor(cutOff.getTime() / 1000);
    },

    async isRevoked(claims: SessionClaims): Promise<boolean> {
      // A borrower seen once stays known: borrowers are not deleted while the portal runs.
      if (!current || !knownBorrowers.has(claims.sub)) return isRevokedInDatabase(claims);
      if (revokedSessions.has(claims.sid)) return true;
      const cutOff = notBefore.get(claims.sub);
      return cutOff !== undefined && issuedBefore(claims, cutOff);
    },

    async close(): Promise<void> {
      clearInterval(prune);
      await listener?.close();
    },
  };
}

// iat has whole seconds: tokens from seconds before the cut-off are refused, so a sign-in right after
// a password change (same second) still works.
const issuedBefore = (claims: SessionClaims, cutOff: number) => claims.iat < cutOff;

export type SessionStore = ReturnType<typeof sessionStore>;
