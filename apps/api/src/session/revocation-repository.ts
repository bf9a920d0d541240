import { sql, type Kysely } from 'kysely';
import type { ApiDatabase } from '../db/schema.js';

/** The channel every instance listens on for revocations (see revocations.ts). */
export const REVOCATION_CHANNEL = 'customer_core_revocations';

/** A session whose next generation a refresh asks for. */
export interface RotatedSession {
  sid: string;
  borrower_id: string;
  /** The generation of the presented token. */
  generation: number;
  /** When the session began (seconds): its row's creation, should this refresh write it first. */
  auth_time: number;
  /** When the presented token was issued (seconds), against the borrower's cut-off. */
  iat: number;
}

/** What one round trip tells of a token's session and borrower. */
export interface SessionState {
  revoked: boolean;
  not_before: Date | null;
  known: boolean;
  generation: number | null;
}

function revocationQueries(db: Kysely<ApiDatabase>) {
  return {
    /** Tells every listening instance, when the transaction (if any) commits. */
    async notify(notice: unknown): Promise<void> {
      await sql`select pg_notify(${REVOCATION_CHANNEL}, ${JSON.stringify(notice)})`.execute(db);
    },

    async insertRevokedSession(sid: string, borrowerId: string, expiresAt: Date): Promise<void> {
      await db
        .insertInto('revoked_session')
        .values({ sid, borrower_id: borrowerId, expires_at: expiresAt })
        .onConflict((oc) => oc.column('sid').doNothing())
        .execute();
    },

    /** Sets the borrower's cut-off of every token to now; the cut-off, or undefined for no such borrower. */
    async cutOffTokens(borrowerId: string): Promise<Date | undefined> {
      const row = await db
        .updateTable('borrower')
        .set({ tokens_not_before: sql<Date>`now()` })
        .where('id', '=', borrowerId)
        .returning('tokens_not_before')
        .executeTakeFirst();
      return row?.tokens_not_before ?? undefined;
    },

    /**
     * After a restore: every borrower's tokens, access and ID, cut off now, and every instance still
     * running told (a 'borrower' notice each, as revokeAllOf sends). How many borrowers.
     */
    async cutOffEveryone(): Promise<number> {
      const { rows } = await sql<{ borrowers: number }>`
        with cut as (
          update borrower set tokens_not_before = now(), id_tokens_not_before = now()
          returning id, tokens_not_before
        ),
        told as (
          select pg_notify(${REVOCATION_CHANNEL}, json_build_object(
            'kind', 'borrower', 'borrowerId', id,
            'notBefore', floor(extract(epoch from tokens_not_before))::bigint
          )::text)
          from cut
        )
        select (select count(*) from told)::int as borrowers`.execute(db);
      return rows[0]?.borrowers ?? 0;
    },

    async cutOffIdTokens(borrowerId: string): Promise<void> {
      await db
        .updateTable('borrower')
        .set({ id_tokens_not_before: sql<Date>`now()` })
        .where('id', '=', borrowerId)
        .execute();
    },

    /**
     * What is revoked and superseded now: sessions revoked and not yet expired, borrowers' cut-offs,
     * and the generations of sessions refreshed within the last `activeSeconds`.
     */
    async current(activeSeconds: number) {
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
        db
          .selectFrom('product_session')
          .select(['sid', 'generation', 'last_active_at'])
          .where('last_active_at', '>', new Date(Date.now() - activeSeconds * 1000))
          .execute(),
      ]);
      return { sessions, cutOffs, rotated };
    },

    /** Whether the session is revoked, the borrower's cut-off and whether they exist, the session's generation. */
    async stateOf(sid: string, borrowerId: string): Promise<SessionState | undefined> {
      const { rows } = await sql<SessionState>`
        select
          exists (select 1 from revoked_session where sid = ${sid}) as revoked,
          (select tokens_not_before from borrower where id = ${borrowerId}::uuid) as not_before,
          exists (select 1 from borrower where id = ${borrowerId}::uuid) as known,
          (select generation from product_session where sid = ${sid}) as generation
      `.execute(db);
      return rows[0];
    },

    /**
     * Moves each session whose generation is the presented one to the next (writing the session's row
     * at its first refresh), and tells every instance in the same statement (a 'rotations' notice:
     * tokens of earlier generations superseded, and unexpired `until`). The database has the final
     * word: a session revoked, or a token issued before the borrower's cut-off, is refused here even
     * when this instance has not heard the notice yet. The sessions moved, with what the next token
     * carries of the borrower, and the sessions refused.
     */
    async rotate(sessions: RotatedSession[], until: number) {
      // In sid order, so that two instances' batches lock shared rows in the same order (no deadlock).
      const { rows } = await sql<
        | { sid: string; refused: false; generation: number; email: string; external_ids: string[] }
        | { sid: string; refused: true; generation: null; email: null; external_ids: null }
      >`
        with presented as (
          select p.*, exists (select 1 from revoked_session r where r.sid = p.sid)
            or exists (
              select 1 from borrower b
              where b.id = p.borrower_id and p.iat < floor(extract(epoch from b.tokens_not_before))
            ) as refused
          from json_to_recordset(${JSON.stringify(sessions)}::json)
            as p(sid text, borrower_id uuid, generation int, auth_time bigint, iat bigint)
        ),
        rotated as (
          insert into product_session as s (sid, borrower_id, generation, created_at, last_active_at)
          select p.sid, p.borrower_id, p.generation + 1, to_timestamp(p.auth_time), now()
          from presented p where not p.refused
          order by p.sid
          on conflict (sid) do update set generation = s.generation + 1, last_active_at = now()
            where s.generation = excluded.generation - 1
          returning s.sid, s.generation, s.borrower_id
        ),
        told as (
          select pg_notify(${REVOCATION_CHANNEL}, json_build_object(
            'kind', 'rotations', 'until', ${until}::bigint,
            'sessions', json_agg(json_build_array(sid, generation))
          )::text)
          from rotated having count(*) > 0
        )
        select rotated.sid, false as refused, rotated.generation, borrower.email, borrower.external_ids
        from rotated join borrower on borrower.id = rotated.borrower_id cross join told
        union all
        select sid, true, null, null, null from presented where refused
      `.execute(db);
      return rows;
    },
  };
}

export type RevocationQueries = ReturnType<typeof revocationQueries>;

/**
 * The SQL of revocations: revoked sessions, borrowers' cut-offs and sessions' generations, and the
 * notices that tell every instance of them. `transaction(work)` runs a change and its notice in one
 * transaction.
 */
export function revocationRepository(db: Kysely<ApiDatabase>) {
  return {
    ...revocationQueries(db),
    transaction: <T>(work: (tx: RevocationQueries) => Promise<T>): Promise<T> =>
      db.transaction().execute((trx) => work(revocationQueries(trx))),
  };
}

export type RevocationRepository = ReturnType<typeof revocationRepository>;
