import type {
  AccountSession,
  SessionEndedBy,
  SessionMethod,
  TokenRefusalReason,
} from '@customer-core/contracts';
import type { Borrower, BorrowerRepository } from '../borrowers/borrower-repository.js';
import type { Directory } from '../identity/directory.js';
import { approximateAddress, deviceOf, USER_AGENT_MAX_LENGTH } from '../activity/device.js';
import type { SecurityActivity } from '../activity/security-activity.js';
import type { AccessTokenChecker } from './access-tokens.js';
import type {
  ProductTokenClaims,
  ProductTokens,
  SignInAuthentication,
  TokenProblem,
} from './product-token.js';
import type { SessionRepository, SessionRow } from './session-repository.js';
import type { Revocations } from './revocations.js';

/** The ways into a session that a link mailed to the borrower's address opens. */
const EMAILED_LINK_METHODS: readonly SessionMethod[] = ['email_link', 'registration'];

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

/** A browser a borrower signed in with, as its device cookie names it. */
export interface SignInDevice {
  /** The browser's device cookie (see http/device-cookie.ts). */
  deviceId: string;
  userAgent?: string | undefined;
  clientAddress?: string | undefined;
}

/**
 * The borrower's known devices and the notice of a sign-in from one new to them
 * (account/new-sign-ins.ts, wired in by services.ts).
 */
export interface NewSignInNotices {
  /** How the borrower's known devices name the browser (its device cookie's hash). */
  deviceHash(deviceId: string): string;
  /** Told of a sign-in from a browser that was not among the borrower's known devices as it began. */
  signedIn(borrower: Borrower, device: SignInDevice): Promise<unknown>;
}

/** A refreshed token, or why not; `reused` when a spent token came back and its session was revoked. */
export type Refresh =
  | { ok: true; token: string }
  | { ok: false; reason: TokenRefusalReason; reused?: { borrowerId: string; generation: number } };

/**
 * The borrower's sign-in sessions: every sign-in begins one here (its row, then its first token), a
 * refresh re-issues the token of one, and ending one revokes its tokens on every instance
 * (Revocations.revoke) and ends its identity-provider session, so that browser is signed out there
 * too and its ID tokens can no longer be exchanged.
 */
export function sessions(deps: {
  repository: SessionRepository;
  productTokens: ProductTokens;
  checkAccessToken: AccessTokenChecker;
  revocations: Revocations;
  borrowers: BorrowerRepository;
  directory: Directory;
  activity: SecurityActivity;
  newSignIns: NewSignInNotices;
  /** Told of each session begun, by how (metrics). */
  onBegun?: (method: SessionMethod) => void;
}) {
  const {
    repository,
    productTokens,
    checkAccessToken,
    revocations,
    borrowers,
    directory,
    activity,
    newSignIns,
  } = deps;

  /** Revokes the session's tokens on every instance, until the session could have ended anyway. */
  const revoke = (sid: string, borrowerId: string, claims: Pick<ProductTokenClaims, 'auth_time'>) =>
    revocations.revoke(sid, borrowerId, new Date(productTokens.sessionEnd(claims) * 1000));

  /** The borrower's subject at this directory; null for one who signs in elsewhere. */
  const subjectHere = (borrower: Borrower | undefined) =>
    borrower?.idpSubject && borrower.idpIssuer === directory.issuer ? borrower.idpSubject : null;

  /** Revokes one product session's tokens and records its end in the borrower's activity. */
  async function endProductSession(row: SessionRow, endedBy: SessionEndedBy): Promise<void> {
    await revoke(row.sid, row.borrower_id, { auth_time: Math.floor(row.created_at.getTime() / 1000) });
    // The device is the one signed out, as the borrower knew it in their list of sessions.
    await activity.record(row.borrower_id, {
      kind: 'session_ended',
      sessionId: row.sid,
      endedBy,
      userAgent: row.user_agent,
      clientNetwork: row.client_network,
    });
  }

  async function end(row: SessionRow, endedBy: SessionEndedBy): Promise<void> {
    await endProductSession(row, endedBy);
    if (!row.idp_session_id) return;
    const subject = subjectHere(await borrowers.findById(row.borrower_id));
    if (subject) await directory.endSession(row.idp_session_id, subject);
  }

  /**
   * Ends every sign-in of the borrower but the product session `keepSid` (all of them with null):
   * what a password change or reset, "sign out everywhere else", "This wasn't me" and an operator
   * do. A sign-in need not be a product session: a browser signed in at the identity provider, or
   * an ID token not yet exchanged, is one too. So, in this order: the cut-off, which refuses on every
   * instance each ID token issued before it; every identity-provider session of the borrower, so
   * that no browser signed in there gets a new ID token; each other active product session (an
   * event in their activity), or only those `ending` picks; and with nothing kept, every access
   * token issued before now. How many product sessions ended.
   */
  async function endOtherSessions(
    borrowerId: string,
    keepSid: string | null,
    endedBy: SessionEndedBy,
    ending: (row: SessionRow) => boolean = () => true,
  ): Promise<number> {
    await revocations.revokeIdTokensOf(borrowerId);
    const subject = subjectHere(await borrowers.findById(borrowerId));
    let ended: number;
    try {
      if (subject) await directory.endSessions(subject);
    } finally {
      // Whatever the directory answered (a hosted org may not), the portal's own sessions end.
      const rows = (await repository.active(borrowerId)).filter((row) => row.sid !== keepSid && ending(row));
      for (const row of rows) await endProductSession(row, endedBy);
      // Last: it hides from the list of active sessions those it ends.
      if (keepSid === null) await revocations.revokeAllOf(borrowerId);
      ended = rows.length;
    }
    return ended;
  }

  /** A spent token presented again: either it or its successor is in someone else's hands. */
  async function revokeReused(claims: ProductTokenClaims): Promise<Refresh> {
    await revoke(claims.sid, claims.sub, claims);
    return { ok: false, reason: 'revoked', reused: { borrowerId: claims.sub, generation: claims.gen } };
  }

  const toSession = (row: SessionRow, currentSid: string | null): AccountSession => ({
    id: row.sid,
    createdAt: row.created_at.toISOString(),
    lastActiveAt: row.last_active_at.toISOString(),
    method: (row.method as SessionMethod | null) ?? null,
    device: deviceOf(row.user_agent),
    approximateAddress: row.client_network,
    current: row.sid === currentSid,
  });

  return {
    /** A sign-in: the session's row, then the first token of it. */
    async begin(borrower: Borrower, context: SignInContext): Promise<string> {
      const now = Date.now();
      const session = productTokens.newSession(now, context.authentication);
      // The session begins with its signed_in event in the borrower's activity and the sighting of a
      // known device: one statement.
      const { deviceSeen } = await repository.insert(
        {
          sid: session.sid,
          borrowerId: borrower.id,
          generation: session.generation,
          // To the millisecond, so sign-ins within one second list in order (auth_time is its second).
          createdAt: new Date(now),
          method: context.method,
          userAgent: context.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) || null,
          clientNetwork: context.clientAddress ? approximateAddress(context.clientAddress) : null,
          idpSessionId: context.idpSessionId ?? null,
        },
        activity.rowToInsert(borrower.id, {
          kind: 'signed_in',
          sessionId: session.sid,
          method: context.method,
          userAgent: context.userAgent,
          clientAddress: context.clientAddress,
        }),
        context.deviceId && newSignIns.deviceHash(context.deviceId),
      );
      if (context.deviceId && !deviceSeen)
        await newSignIns.signedIn(borrower, { ...context, deviceId: context.deviceId });
      const subject = { borrowerId: borrower.id, email: borrower.email, externalIds: borrower.externalIds };
      deps.onBegun?.(context.method);
      return productTokens.issue(subject, session).token;
    },

    /**
     * A fresh access token for the current one of an unrevoked session, within its maximum age. Refresh
     * rotates: the presented token is spent (superseded by the new one), and a spent token presented
     * again revokes its whole session family, since either it or its successor is in someone else's
     * hands (refresh-token reuse detection, OAuth 2.0 Security BCP).
     */
    async refresh(token: string): Promise<Refresh> {
      const checked = await checkAccessToken(token);
      if (!checked.ok) {
        // This instance already knows the token was refreshed before.
        if (checked.reason === 'superseded' && checked.claims) return revokeReused(checked.claims);
        return { ok: false, reason: checked.reason };
      }
      const { claims } = checked;
      if (productTokens.sessionEnd(claims) * 1000 <= Date.now())
        return { ok: false, reason: 'session_expired' };
      const rotation = await revocations.rotate(claims);
      // Signed out or cut off, possibly on another instance that has not told this one yet.
      if (!rotation.ok && rotation.reason === 'revoked') return { ok: false, reason: 'revoked' };
      // Refreshed before, possibly likewise elsewhere.
      if (!rotation.ok) return revokeReused(claims);
      const refreshed = productTokens.issue(
        { borrowerId: claims.sub, email: rotation.email, externalIds: rotation.externalIds },
        {
          sid: claims.sid,
          authTime: claims.auth_time,
          generation: rotation.generation,
          ...(claims.amr ? { amr: claims.amr } : {}),
        },
      );
      productTokens.forget(token);
      return { ok: true, token: refreshed.token };
    },

    /**
     * Sign-out: the token's whole session family is revoked for every instance (tokens refreshed from
     * it too), and the borrower's sessions at the identity provider end, so it cannot silently sign the
     * browser back in. An expired or already revoked token may still sign out.
     */
    async signOut(
      token: string,
    ): Promise<{ ok: true; borrowerId: string } | { ok: false; problem: TokenProblem }> {
      const verified = await productTokens.verify(token, { allowExpired: true });
      if (!verified.ok) return verified;
      const { sid, sub } = verified.claims;
      await revoke(sid, sub, verified.claims);
      productTokens.forget(token);
      const subject = subjectHere(await borrowers.findById(sub));
      if (subject) await directory.endSessions(subject);
      return { ok: true, borrowerId: sub };
    },

    /** The borrower's active sessions, newest first; `currentSid` marks the caller's. */
    async list(borrowerId: string, currentSid: string | null = null): Promise<AccountSession[]> {
      const rows = await repository.active(borrowerId);
      return rows.map((row) => toSession(row, currentSid));
    },

    /** Whose session this is, active or not. */
    ownerOf: repository.ownerOf,

    /** Ends one active session of the borrower; false when they have no such session. */
    async end(borrowerId: string, sid: string, endedBy: SessionEndedBy): Promise<boolean> {
      const row = await repository.activeOne(borrowerId, sid);
      if (!row) return false;
      await end(row, endedBy);
      return true;
    },

    endOtherSessions,

    /**
     * After an email change: whoever reads the old address keeps nothing it gave them. Ends the
     * borrower's active sessions begun through a link e-mailed there (a sign-in link, or the
     * invitation they registered with) but `keepSid`; and, as endOtherSessions does, every
     * identity-provider session of theirs (a link's session token starts one no product session
     * names) and every ID token issued before now. How many product sessions ended.
     */
    endBegunByEmailedLink: (borrowerId: string, keepSid: string): Promise<number> =>
      endOtherSessions(borrowerId, keepSid, 'email_change', (row) =>
        EMAILED_LINK_METHODS.includes(row.method as SessionMethod),
      ),
  };
}

export type Sessions = ReturnType<typeof sessions>;
