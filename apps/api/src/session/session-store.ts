import { sql, type Kysely } from 'kysely';
import {
  listenForNotifications,
  type DatabaseLocation,
  type NotificationListener,
} from '@customer-core/database';
import { groupedCalls } from '../db/grouped-calls.js';
import type { ApiDatabase } from '../db/schema.js';

/** What the check of an access token needs of its claims. */
interface SessionClaims {
  sid: string;
  sub: string;
  iat: number;
  /** Refresh generation; tokens signed before generations existed have none (0). */
  gen?: number;
}

/**
 * Told to every instance when a session family or every session of a borrower is revoked, or when a
 * refresh supersedes a session's tokens (those of earlier generations).
 */
type Revocation =
  | { kind: 'session'; sid: string; borrowerId: string; expiresAt: number }
  | { kind: 'borrower'; borrowerId: string; notBefore: number }
  | { kind: 'rotation'; sid: string; generation: number; until: number }
  | { kind: 'rotations'; until: number; sessions: [sid: string, generation: number][] };

/** Why a verified token's session refuses it, if it does. */
export type SessionRefusal = 'revoked' | 'superseded';

/** What a refresh needs to sign the next token, or why the presented one was not refreshed. */
export type Rotation =
  { ok: true; generation: number; email: string; externalIds: string[] } | { ok: false; reason: 'spent' };

const CHANNEL = 'customer_core_revocations';

/**
 * Which sign-in sessions are over, shared by every instance through the database: a revoked session
 * family (sign-out, or a spent token presented again) or a borrower-wide cut-off (tokens issued before
 * it are refused). And which tokens a refresh superseded: each refresh spends the session's current
 * generation (product_session), so only the newest token of a session is good.
 *
 * Every instance keeps what is revoked and superseded in memory, so checking an access token costs no
 * query: it loads the tables when it starts listening, and hears each later change by NOTIFY, sent in
 * the changing statement or transaction (the changing instance applies it at once). While it is not
 * listening (start-up, a lost connection) it asks the database instead. On PGlite there is only this
 * instance.
 */
export function sessionStore(
  db: Kysely<ApiDatabase>,
  location: DatabaseLocation,
  { accessTokenTtlSeconds }: { accessTokenTtlSeconds: number },
) {
  const revokedSessions = new Map<string, number>(); // sid -> when it could no longer be refreshed (ms)
  const notBefore = new Map<string, number>(); // borrower id -> cut-off (seconds since the epoch)
  // sid -> its current generation, and until when (ms) a token of an earlier one could be unexpired.
  const generations = new Map<string, { generation: number; until: number }>();
  const knownBorrowers = new Set<string>();
  let current = false;

  // Revocations only add: a cut-off only moves later, whatever order the load and notices come in.
  const setCutOff = (borrowerId: string, cutOff: number) =>
    notBefore.set(borrowerId, Math.max(cutOff, notBefore.get(borrowerId) ?? 0));

  // Likewise a generation only moves on.
  const setGeneration = (sid: string, generation: number, until: number) => {
    const known = generations.get(sid);
    if (!known || known.generation < generation) generations.set(sid, { generation, until });
  };

  function apply(revocation: Revocation) {
    switch (revocation.kind) {
      case 'session':
        revokedSessions.set(revocation.sid, revocation.expiresAt);
        break;
      case 'borrower':
        setCutOff(revocation.borrowerId, revocation.notBefore);
        break;
      case 'rotations':
        for (const [sid, generation] of revocation.sessions) setGeneration(sid, generation, revocation.until);
        break;
      case 'rotation': // one session's: what instances of the earlier version send while a deploy rolls
        setGeneration(revocation.sid, revocation.generation, revocation.until);
    }
  }

  async function load(): Promise<void> {
    const [sessions, cutOffs, rotated] = await Promise.all([
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
      // A token superseded longer than a token's lifetime ago has expired anyway.
      db
        .selectFrom('product_session')
        .select(['sid', 'generation', 'last_active_at'])
        .where('last_active_at', '>', new Date(Date.now() - accessTokenTtlSeconds * 1000))
        .execute(),
    ]);
    for (const row of sessions) revokedSessions.set(row.sid, row.expires_at.getTime());
    for (const row of cutOffs) setCutOff(row.id, Math.floor(row.tokens_not_before!.getTime() / 1000));
    for (const row of rotated) {
      setGeneration(row.sid, row.generation, row.last_active_at.getTime() + accessTokenTtlSeconds * 1000);
    }
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
    for (const [sid, { until }] of generations) if (until <= now) generations.delete(sid);
  }, 60_000);
  prune.unref();

  async function announce(trx: Kysely<ApiDatabase>, revocation: Revocation) {
    await sql`select pg_notify(${CHANNEL}, ${JSON.stringify(revocation)})`.execute(trx);
    apply(revocation);
  }

  /**
   * Refreshes at once are rotated together: one statement, one commit and one notice for the group.
   * A notice makes its transaction wait for every other notifying one to commit, so a statement and a
   * NOTIFY per refresh queue behind each other's disk flush (~450/s here against ~3,500/s without).
   */
  const rotateInGroups = groupedCalls(
    async (presented: (SessionClaims & { auth_time: number })[]): Promise<Rotation[]> => {
      const until = Date.now() + accessTokenTtlSeconds * 1000;
      const sessions = presented.map((claims) => ({
        sid: claims.sid,
        borrower_id: claims.sub,
        generation: claims.gen ?? 0,
        auth_time: claims.auth_time,
      }));
      // In sid order, so that two instances' groups lock shared rows in the same order (no deadlock).
      const { rows } = await sql<{ sid: string; generation: number; email: string; external_ids: string[] }>`
        with rotated as (
          insert into product_session as s (sid, borrower_id, generation, created_at, last_active_at)
          select p.sid, p.borrower_id, p.generation + 1, to_timestamp(p.auth_time), now()
          from json_to_recordset(${JSON.stringify(sessions)}::json)
            as p(sid text, borrower_id uuid, generation int, auth_time bigint)
          order by p.sid
          on conflict (sid) do update set generation = s.generation + 1, last_active_at = now()
            where s.generation = excluded.generation - 1
          returning s.sid, s.generation, s.borrower_id
        ),
        told as (
          select pg_notify(${CHANNEL}, json_build_object(
            'kind', 'rotations', 'until', ${until}::bigint,
            'sessions', json_agg(json_build_array(sid, generation))
          )::text)
          from rotated having count(*) > 0
        )
        select rotated.sid, rotated.generation, borrower.email, borrower.external_ids
        from rotated join borrower on borrower.id = rotated.borrower_id cross join told
      `.execute(db);
      const bySid = new Map(rows.map((row) => [row.sid, row]));
      return presented.map((claims): Rotation => {
        const row = bySid.get(claims.sid);
        if (!row) return { ok: false, reason: 'spent' };
        setGeneration(claims.sid, row.generation, until);
        return { ok: true, generation: row.generation, email: row.email, externalIds: row.external_ids };
      });
    },
    // A notice holds at most 8,000 bytes: ~45 per session (sids are UUIDs).
    { keyOf: (claims) => claims.sid, maxGroup: 100 },
  );

  /**
   * One round trip: is this token's session revoked, was it issued before the borrower's cut-off, or
   * has a refresh superseded it?
   */
  async function refusalInDatabase(claims: SessionClaims): Promise<SessionRefusal | null> {
    const { rows } = await sql<{
      revoked: boolean;
      not_before: Date | null;
      known: boolean;
      generation: number | null;
    }>`
      select
        exists (select 1 from revoked_session where sid = ${claims.sid}) as revoked,
        (select tokens_not_before from borrower where id = ${claims.sub}::uuid) as not_before,
        exists (select 1 from borrower where id = ${claims.sub}::uuid) as known,
        (select generation from product_session where sid = ${claims.sid}) as generation
    `.execute(db);
    const row = rows[0];
    if (!row || row.revoked || !row.known) return 'revoked';
    knownBorrowers.add(claims.sub);
    if (row.not_before !== null && issuedBefore(claims, Math.floor(row.not_before.getTime() / 1000))) {
      return 'revoked';
    }
    return row.generation !== null && (claims.gen ?? 0) < row.generation ? 'superseded' : null;
  }

  function refusalInMemory(claims: SessionClaims): SessionRefusal | null {
    if (revokedSessions.has(claims.sid)) return 'revoked';
    const cutOff = notBefore.get(claims.sub);
    if (cutOff !== undefined && issuedBefore(claims, cutOff)) return 'revoked';
    const current = generations.get(claims.sid);
    return current && (claims.gen ?? 0) < current.generation ? 'superseded' : null;
  }

  async function refusal(claims: SessionClaims): Promise<SessionRefusal | null> {
    // A borrower seen once stays known: borrowers are not deleted while the portal runs.
    if (!current || !knownBorrowers.has(claims.sub)) return refusalInDatabase(claims);
    return refusalInMemory(claims);
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
     * Refuses every ID token of the borrower issued up to now (their other sessions ended), and no
     * access token: the session the borrower ended the others from goes on. Every instance reads it
     * from the database at the exchange (issuedBeforeCutOff), so it holds everywhere once committed.
     */
    async revokeIdTokensOf(borrowerId: string): Promise<void> {
      await db
        .updateTable('borrower')
        .set({ id_tokens_not_before: sql<Date>`now()` })
        .where('id', '=', borrowerId)
        .execute();
    },

    /**
     * Whether an ID token issued at `issuedAt` (seconds) for this identity predates the borrower's
     * cut-off: their last password change, sign-out everywhere or end of their other sessions. Asks
     * the database: it is asked once per sign-in.
     */
    async issuedBeforeCutOff(identity: { issuer: string; subject: string }, issuedAt: number) {
      const row = await db
        .selectFrom('borrower')
        .select(sql<Date | null>`greatest(tokens_not_before, id_tokens_not_before)`.as('cut_off'))
        .where('idp_issuer', '=', identity.issuer)
        .where('idp_subject', '=', identity.subject)
        .executeTakeFirst();
      const cutOff = row?.cut_off;
      return !!cutOff && issuedAt < Math.floor(cutOff.getTime() / 1000);
    },

    /** Whether the token's session refuses it: revoked, or superseded by a refresh. */
    refusal,

    /** Whether checks answer from memory now (listening and loaded), not by a query. */
    answersFromMemory: () => current,

    async isRevoked(claims: SessionClaims): Promise<boolean> {
      return (await refusal(claims)) !== null;
    },

    /**
     * Spends the token's generation of its session and returns the next one, with what the next
     * token carries of the borrower: of any number of refreshes of one token, on any instances,
     * exactly one gets it. The session's row is written by its first refresh. Every instance is told
     * that the earlier generations are superseded, in the same transaction.
     */
    rotate: (claims: SessionClaims & { auth_time: number }): Promise<Rotation> => rotateInGroups(claims),

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
