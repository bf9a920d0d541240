import { sql, type Kysely } from 'kysely';
import type { AccountSession, SessionEndedBy, SessionMethod } from '@customer-core/contracts';
import type { Borrower, BorrowerRepository } from '../borrowers/borrower-repository.js';
import type { ApiDatabase } from '../db/schema.js';
import type { Directory } from '../identity/directory.js';
import type { ProductTokens, SignInAuthentication } from './product-token.js';
import type { SessionStore } from './session-store.js';
import { approximateAddress, describeDevice, USER_AGENT_MAX_LENGTH } from '../account/device.js';
import type { NewSignIns } from '../account/new-sign-ins.js';
import type { SecurityActivity } from '../account/security-activity.js';

/** What a sign-in knows of where it came from. */
export interface SignInContext {
  method: SessionMethod;
  userAgent?: string | undefined;
  /** The client's full address: only its network is kept. */
  clientAddress?: string | undefined;
  /** The identity provider's session the sign-in came from (the ID token's sid), ended with it. */
  idpSessionId?: string | null | undefined;
  /** How and when the identity provider authenticated the borrower, when it says (amr, auth_time). */
  authentication?: SignInAuthentication | undefined;
  /** The browser's device cookie: a sign-in from one new to the borrower is e-mailed to them. */
  deviceId?: string | undefined;
}

interface SessionRow {
  sid: string;
  borrower_id: string;
  created_at: Date;
  last_active_at: Date;
  method: string | null;
  user_agent: string | null;
  client_network: string | null;
  idp_session_id: string | null;
}

/**
 * The borrower's sign-in sessions as they see them: each sign-in writes its session's row
 * (product_session, the row refreshes rotate), and ending one revokes its tokens on every instance
 * (SessionStore.revoke) and ends its identity-provider session, so that browser is signed out there
 * too and its ID tokens can no longer be exchanged.
 */
export function accountSessions(deps: {
  db: Kysely<ApiDatabase>;
  productTokens: ProductTokens;
  sessions: SessionStore;
  borrowers: BorrowerRepository;
  directory: Directory;
  activity: SecurityActivity;
  newSignIns: NewSignIns;
  accessTokenTtlSeconds: number;
  sessionMaxAgeSeconds: number;
}) {
  const { db, productTokens, sessions, borrowers, directory, activity } = deps;

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
        .where('s.created_at', '>', sql<Date>`now() - make_interval(secs => ${deps.sessionMaxAgeSeconds})`)
        .where(
          's.last_active_at',
          '>',
          sql<Date>`now() - make_interval(secs => ${deps.accessTokenTtlSeconds})`,
        )
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('revoked_session as r').select('r.sid').whereRef('r.sid', '=', 's.sid'))),
        )
        // Token iat has whole seconds (see SessionStore): a session begun in the cut-off's second lives.
        .where(
          sql<boolean>`(b.tokens_not_before is null or s.created_at >= date_trunc('second', b.tokens_not_before))`,
        )
        .orderBy('s.created_at', 'desc')
        .orderBy('s.sid')
    );
  }

  async function end(row: SessionRow, endedBy: SessionEndedBy): Promise<void> {
    const authTime = Math.floor(row.created_at.getTime() / 1000);
    await sessions.revoke(
      row.sid,
      row.borrower_id,
      new Date(productTokens.sessionEnd({ auth_time: authTime }) * 1000),
    );
    // The device is the one signed out, as the borrower knew it in their list of sessions.
    await activity.record(row.borrower_id, {
      kind: 'session_ended',
      sessionId: row.sid,
      endedBy,
      userAgent: row.user_agent,
      clientNetwork: row.client_network,
    });
    if (!row.idp_session_id) return;
    const borrower = await borrowers.findById(row.borrower_id);
    if (borrower?.idpSubject && borrower.idpIssuer === directory.issuer) {
      await directory.endSession(row.idp_session_id, borrower.idpSubject);
    }
  }

  const toSession = (row: SessionRow, currentSid: string | null): AccountSession => ({
    id: row.sid,
    createdAt: row.created_at.toISOString(),
    lastActiveAt: row.last_active_at.toISOString(),
    method: (row.method as SessionMethod | null) ?? null,
    device: describeDevice(row.user_agent),
    approximateAddress: row.client_network,
    current: row.sid === currentSid,
  });

  return {
    /** A sign-in: the session's row, then the first token of it. */
    async begin(borrower: Borrower, context: SignInContext): Promise<string> {
      const now = Date.now();
      const session = productTokens.newSession(now, context.authentication);
      await db
        .insertInto('product_session')
        .values({
          sid: session.sid,
          borrower_id: borrower.id,
          generation: session.generation,
          // To the millisecond, so sign-ins within one second list in order (auth_time is its second).
          created_at: new Date(now),
          method: context.method,
          user_agent: context.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) || null,
          client_network: context.clientAddress ? approximateAddress(context.clientAddress) : null,
          idp_session_id: context.idpSessionId ?? null,
        })
        .execute();
      await activity.record(borrower.id, {
        kind: 'signed_in',
        sessionId: session.sid,
        method: context.method,
        userAgent: context.userAgent,
        clientAddress: context.clientAddress,
      });
      if (context.deviceId)
        await deps.newSignIns.signedIn(borrower, { ...context, deviceId: context.deviceId });
      const subject = { borrowerId: borrower.id, email: borrower.email, externalIds: borrower.externalIds };
      return productTokens.issue(subject, session).token;
    },

    /** The borrower's active sessions, newest first; `currentSid` marks the caller's. */
    async list(borrowerId: string, currentSid: string | null = null): Promise<AccountSession[]> {
      const rows = await active(borrowerId).execute();
      return rows.map((row) => toSession(row, currentSid));
    },

    /** Whose session this is, active or not. */
    async ownerOf(sid: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('product_session')
        .select('borrower_id')
        .where('sid', '=', sid)
        .executeTakeFirst();
      return row?.borrower_id;
    },

    /** Ends one active session of the borrower; false when they have no such session. */
    async end(borrowerId: string, sid: string, endedBy: SessionEndedBy): Promise<boolean> {
      const row = await active(borrowerId).where('s.sid', '=', sid).executeTakeFirst();
      if (!row) return false;
      await end(row, endedBy);
      return true;
    },

    /** Ends every active session of the borrower but `keepSid` (all of them without one); how many. */
    async endAll(borrowerId: string, keepSid: string | null, endedBy: SessionEndedBy): Promise<number> {
      const rows = await active(borrowerId).execute();
      const ending = rows.filter((row) => row.sid !== keepSid);
      for (const row of ending) await end(row, endedBy);
      return ending.length;
    },
  };
}

export type AccountSessions = ReturnType<typeof accountSessions>;
