import { sql, type Insertable, type Kysely } from 'kysely';
import type { SessionMethod } from '@customer-core/contracts';
import type { ApiDatabase, SecurityEventTable } from '../db/schema.js';

/** A sign-in session's row (product_session), as the borrower's list of sessions shows it. */
export interface SessionRow {
  sid: string;
  borrower_id: string;
  created_at: Date;
  last_active_at: Date;
  method: string | null;
  user_agent: string | null;
  client_network: string | null;
  idp_session_id: string | null;
}

/** The SQL of sign-in sessions: each sign-in's row, and which of a borrower's sessions are active. */
export function sessionRepository(
  db: Kysely<ApiDatabase>,
  limits: { accessTokenTtlSeconds: number; sessionMaxAgeSeconds: number },
) {
  /**
   * Active: not revoked, not cut off (password change, sign-out everywhere), within its maximum age,
   * and refreshed within a token's lifetime (a refresh needs an unexpired token).
   */
  function active(borrowerId: string) {
    return (
      db
        .selectFrom('product_session as s')
        .innerJoin('borrower as b', 'b.id', 's.borrower_id')
        .select([
          's.sid',
          's.borrower_id',
          's.created_at',
          's.last_active_at',
          's.method',
          's.user_agent',
          's.client_network',
          's.idp_session_id',
        ])
        .where('s.borrower_id', '=', borrowerId)
        .where('s.created_at', '>', sql<Date>`now() - make_interval(secs => ${limits.sessionMaxAgeSeconds})`)
        .where(
          's.last_active_at',
          '>',
          sql<Date>`now() - make_interval(secs => ${limits.accessTokenTtlSeconds})`,
        )
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('revoked_session as r').select('r.sid').whereRef('r.sid', '=', 's.sid'))),
        )
        // Token iat has whole seconds (see revocations.ts): a session begun in the cut-off's second lives.
        .where(
          sql<boolean>`(b.tokens_not_before is null or s.created_at >= date_trunc('second', b.tokens_not_before))`,
        )
        .orderBy('s.created_at', 'desc')
        .orderBy('s.sid')
    );
  }

  return {
    /**
     * A new session's row, the event that records it (signed_in) and the sighting of the browser it
     * began in (its known device, by the hash the account module keeps: marked seen now), in one
     * statement. Whether the browser was one of the borrower's known devices.
     */
    async insert(
      row: {
        sid: string;
        borrowerId: string;
        generation: number;
        createdAt: Date;
        method: SessionMethod;
        userAgent: string | null;
        clientNetwork: string | null;
        idpSessionId: string | null;
      },
      /** The activity module's row of the event (security_event), as it records one. */
      event: Insertable<SecurityEventTable>,
      /** The browser's known_device hash; none without a device cookie. */
      deviceHash?: string,
    ): Promise<{ deviceSeen: boolean }> {
      return db
        .with('recorded', (qc) => qc.insertInto('security_event').values(event))
        .with('seen', (qc) =>
          qc
            .updateTable('known_device')
            .set({ last_seen_at: sql<Date>`now()` })
            .where('borrower_id', '=', row.borrowerId)
            // Without a device: equal to none.
            .where(sql<boolean>`device_hash = ${deviceHash ?? null}`)
            .returning('device_hash'),
        )
        .insertInto('product_session')
        .values({
          sid: row.sid,
          borrower_id: row.borrowerId,
          generation: row.generation,
          created_at: row.createdAt,
          method: row.method,
          user_agent: row.userAgent,
          client_network: row.clientNetwork,
          idp_session_id: row.idpSessionId,
        })
        .returning(sql<boolean>`exists (select 1 from seen)`.as('deviceSeen'))
        .executeTakeFirstOrThrow();
    },

    /** The borrower's active sessions, newest first. */
    active: (borrowerId: string): Promise<SessionRow[]> => active(borrowerId).execute(),

    /** One active session of the borrower, if it is theirs and active. */
    activeOne: (borrowerId: string, sid: string): Promise<SessionRow | undefined> =>
      active(borrowerId).where('s.sid', '=', sid).executeTakeFirst(),

    /** Whose session this is, active or not. */
    async ownerOf(sid: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('product_session')
        .select('borrower_id')
        .where('sid', '=', sid)
        .executeTakeFirst();
      return row?.borrower_id;
    },
  };
}

export type SessionRepository = ReturnType<typeof sessionRepository>;
