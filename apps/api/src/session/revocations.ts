import {
  listenForNotifications,
  type DatabaseLocation,
  type NotificationListener,
} from '@customer-core/database';
import type { FastifyBaseLogger } from 'fastify';
import { batchedCalls } from '../db/batched-calls.js';
import {
  REVOCATION_CHANNEL,
  type RevocationQueries,
  type RevocationRepository,
} from './revocation-repository.js';

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
  | { ok: true; generation: number; email: string; externalIds: string[] }
  | { ok: false; reason: 'spent' | 'revoked' };

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
export function revocations(
  repository: RevocationRepository,
  location: DatabaseLocation,
  {
    accessTokenTtlSeconds,
    log,
  }: { accessTokenTtlSeconds: number; log: Pick<FastifyBaseLogger, 'debug' | 'warn'> },
) {
  const revokedSessions = new Map<string, number>(); // sid -> when it could no longer be refreshed (ms)
  const notBefore = new Map<string, number>(); // borrower id -> cut-off (seconds since the epoch)
  // sid -> its current generation, and until when (ms) a token of an earlier one could be unexpired.
  const generations = new Map<string, { generation: number; until: number }>();
  const knownBorrowers = new Set<string>();
  let current = false;
  // Told when what this instance knows has changed (afterChange).
  const changeWaiters: Array<() => void> = [];
  const changed = () => {
    for (const waiter of changeWaiters.splice(0)) waiter();
  };

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
    changed();
  }

  async function load(): Promise<void> {
    // A token superseded longer than a token's lifetime ago has expired anyway.
    const { sessions, cutOffs, rotated } = await repository.current(accessTokenTtlSeconds);
    for (const row of sessions) revokedSessions.set(row.sid, row.expires_at.getTime());
    for (const row of cutOffs) setCutOff(row.id, Math.floor(row.tokens_not_before!.getTime() / 1000));
    for (const row of rotated) {
      setGeneration(row.sid, row.generation, row.last_active_at.getTime() + accessTokenTtlSeconds * 1000);
    }
    current = true;
    changed();
  }

  const listener: NotificationListener | null =
    location.kind === 'postgres'
      ? listenForNotifications(location.listenUrl ?? location.url, REVOCATION_CHANNEL, {
          onNotification: (payload) => {
            try {
              const revocation = JSON.parse(payload) as Revocation;
              apply(revocation);
              // From here on this instance refuses what the notice revokes.
              log.debug({ revocation: revocation.kind }, 'revocation notice heard');
            } catch {
              // Not a notice of ours: ask the database until the tables are loaded again.
              log.warn('unreadable revocation notice; checking tokens with the database until reloaded');
              current = false;
              changed();
              void load().catch(() => {});
            }
          },
          onListening: load,
          onLost: () => {
            current = false;
            changed();
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

  /** Tells every instance in `tx`'s transaction, and this one at once. */
  async function announce(tx: RevocationQueries, revocation: Revocation) {
    await tx.notify(revocation);
    apply(revocation);
  }

  /**
   * Refreshes at once are rotated together: one statement, one commit and one notice for the batch.
   * A notice makes its transaction wait for every other notifying one to commit, so a statement and a
   * NOTIFY per refresh queue behind each other's disk flush (~450/s here against ~3,500/s without).
   */
  const rotateInBatches = batchedCalls(
    async (presented: (SessionClaims & { auth_time: number })[]): Promise<Rotation[]> => {
      const until = Date.now() + accessTokenTtlSeconds * 1000;
      const sessions = presented.map((claims) => ({
        sid: claims.sid,
        borrower_id: claims.sub,
        generation: claims.gen ?? 0,
        auth_time: claims.auth_time,
        iat: claims.iat,
      }));
      const rows = await repository.rotate(sessions, until);
      const bySid = new Map(rows.map((row) => [row.sid, row]));
      return presented.map((claims): Rotation => {
        const row = bySid.get(claims.sid);
        if (!row) return { ok: false, reason: 'spent' };
        if (row.refused) return { ok: false, reason: 'revoked' };
        setGeneration(claims.sid, row.generation, until);
        return { ok: true, generation: row.generation, email: row.email, externalIds: row.external_ids };
      });
    },
    // A notice holds at most 8,000 bytes: ~45 per session (sids are UUIDs).
    { keyOf: (claims) => claims.sid, maxBatch: 100 },
  );

  /**
   * One round trip: is this token's session revoked, was it issued before the borrower's cut-off, or
   * has a refresh superseded it?
   */
  async function refusalInDatabase(claims: SessionClaims): Promise<SessionRefusal | null> {
    const row = await repository.stateOf(claims.sid, claims.sub);
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
      await repository.transaction(async (tx) => {
        await tx.insertRevokedSession(sid, borrowerId, expiresAt);
        await announce(tx, { kind: 'session', sid, borrowerId, expiresAt: expiresAt.getTime() });
      });
    },

    /** Refuses every token of the borrower issued up to now, on every instance. */
    async revokeAllOf(borrowerId: string): Promise<void> {
      await repository.transaction(async (tx) => {
        const notBefore = await tx.cutOffTokens(borrowerId);
        if (!notBefore) return;
        const cutOff = Math.floor(notBefore.getTime() / 1000);
        await announce(tx, { kind: 'borrower', borrowerId, notBefore: cutOff });
      });
    },

    /**
     * Refuses every ID token of the borrower issued up to now (their other sessions ended), and no
     * access token: the session the borrower ended the others from goes on. Every instance reads it
     * from the database at the exchange (ExchangedIdTokenRepository.spend), so it holds everywhere
     * once committed.
     */
    revokeIdTokensOf: (borrowerId: string): Promise<void> => repository.cutOffIdTokens(borrowerId),

    /** Whether the token's session refuses it: revoked, or superseded by a refresh. */
    refusal,

    /** Whether checks answer from memory now (listening and loaded), not by a query. */
    answersFromMemory: () => current,

    /**
     * Resolves when what this instance knows next changes: a revocation applied (its own or another
     * instance's notice), the tables loaded, the listener lost. A caller waiting for a notice from
     * another instance (a test) checks again then, rather than every few milliseconds.
     */
    afterChange: (): Promise<void> => new Promise((resolve) => changeWaiters.push(resolve)),

    async isRevoked(claims: SessionClaims): Promise<boolean> {
      return (await refusal(claims)) !== null;
    },

    /**
     * Spends the token's generation of its session and returns the next one, with what the next
     * token carries of the borrower: of any number of refreshes of one token, on any instances,
     * exactly one gets it. The session's row is written by its first refresh. Every instance is told
     * that the earlier generations are superseded, in the same transaction.
     */
    rotate: (claims: SessionClaims & { auth_time: number }): Promise<Rotation> => rotateInBatches(claims),

    /**
     * With PostgreSQL: whether the LISTEN connection is up and what it heard is loaded (while it is
     * not, checks ask the database). Null on the embedded database, which has no such connection.
     */
    listening: (): boolean | null => (listener ? current : null),

    async close(): Promise<void> {
      clearInterval(prune);
      await listener?.close();
    },
  };
}

// iat has whole seconds: tokens from seconds before the cut-off are refused, so a sign-in right after
// a password change (same second) still works.
const issuedBefore = (claims: SessionClaims, cutOff: number) => claims.iat < cutOff;

export type Revocations = ReturnType<typeof revocations>;
