import { sql, type Kysely, type RawBuilder } from 'kysely';
import { compiledOnce, newOneTimeToken, oneTimeTokenHash } from '@customer-core/database';
import type { IdpDatabase } from './schema.js';
import { toUser, USER_PROFILE_COLUMNS, type IdpUser } from './user-repository.js';

// What the browser carries from /api/v1/authn to /v1/authorize: a one-time token.

/** How a sign-in was made: what the ID token's amr and auth_time say. */
export interface Authentication {
  /** RFC 8176 values, e.g. ['pwd'] or ['pwd', 'otp', 'mfa']. */
  amr: string[];
  /** When the user proved who they are. */
  authenticatedAt: Date;
}

/** A session token as redeemed: whose, and how they signed in. */
export interface RedeemedSessionToken {
  userId: string;
  /** The user as they were when the token was redeemed (read in the same statement); none if gone. */
  user?: IdpUser;
  /** Undefined for tokens issued without one (a password alone, or a sign-in link). */
  authentication?: Authentication;
}

/** A session token as presented at the authorize endpoint: redeemed now, or `again` by the session that did. */
export interface PresentedSessionToken extends RedeemedSessionToken {
  again: boolean;
}

/** A condition read in the statement that issues a session token after a password (issueAfterPassword). */
export type IssueCondition = RawBuilder<boolean>;

/** What `present`'s statement reads of a token it presents. */
const PRESENTED_COLUMNS = ['user_id', 'amr', 'authenticated_at', 'again'] as const;

/**
 * The statement of `present`: the user comes with the token, so the authorize that presents it need
 * not look the account up next (oidc-provider's findAccount). `earlier` reads the statement's snapshot,
 * from before `redeemed`'s update: a token redeemed now is not also earlier.
 */
const presenting = compiledOnce((db: Kysely<IdpDatabase>, hash: string, sessionUid: string) =>
  db
    .with('redeemed', (qc) =>
      qc
        .updateTable('idp_session_token')
        .set({ consumed_at: sql<Date>`now()`, session_uid: sessionUid })
        .where('token_hash', '=', hash)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`)
        .returning(['user_id', 'amr', 'authenticated_at', sql<boolean>`false`.as('again')]),
    )
    .with('earlier', (qc) =>
      qc
        .selectFrom('idp_session_token')
        .select(['user_id', 'amr', 'authenticated_at', sql<boolean>`true`.as('again')])
        .where('token_hash', '=', hash)
        .where('consumed_at', 'is not', null)
        .where('session_uid', '=', sessionUid)
        .where('expires_at', '>', sql<Date>`now()`),
    )
    // Columns named, not `*`: a text that reads every column is never prepared (database's
    // prepared-statements.ts), and this one was planned again at every sign-in.
    .with('presented', (qc) =>
      qc
        .selectFrom('redeemed')
        .select(PRESENTED_COLUMNS)
        .unionAll(qc.selectFrom('earlier').select(PRESENTED_COLUMNS)),
    )
    .selectFrom('presented')
    .leftJoin('idp_user', 'idp_user.id', 'presented.user_id')
    .select(USER_PROFILE_COLUMNS)
    .select(['presented.user_id', 'presented.amr', 'presented.authenticated_at', 'presented.again']),
);

export function createSessionTokenRepository(db: Kysely<IdpDatabase>, ttlSeconds: number) {
  return {
    async issue(
      userId: string,
      authentication?: Authentication,
    ): Promise<{ sessionToken: string; expiresAt: Date }> {
      const sessionToken = newOneTimeToken();
      // Expiry from the database's clock, the same one consume() compares against.
      const row = await db
        .insertInto('idp_session_token')
        .values({
          token_hash: oneTimeTokenHash(sessionToken),
          user_id: userId,
          expires_at: sql<Date>`now() + make_interval(secs => ${ttlSeconds})`,
          amr: authentication ? authentication.amr.join(',') : null,
          authenticated_at: authentication?.authenticatedAt ?? null,
        })
        .returning('expires_at')
        .executeTakeFirstOrThrow();
      return { sessionToken, expiresAt: row.expires_at };
    },

    /**
     * After a right password, in one statement: `alongside` (the write that comes with it: the end of
     * the network's failure streak), whether a lockout holds (`locked`) or the sign-in goes on to a
     * second factor (`factorAsked`; without it, none is), and the session token (a password alone: no authentication),
     * issued only when neither holds.
     */
    async issueAfterPassword(
      userId: string,
      gate: {
        alongside: RawBuilder<unknown>;
        locked: RawBuilder<boolean>;
        factorAsked?: RawBuilder<boolean>;
      },
    ): Promise<{ locked: boolean; token?: { sessionToken: string; expiresAt: Date } }> {
      const sessionToken = newOneTimeToken();
      const { rows } = await sql<{ locked: boolean; expires_at: Date | null }>`
        with alongside as (${gate.alongside}),
        state as (select ${gate.locked} as locked, ${gate.factorAsked ?? sql<boolean>`false`} as factor_asked),
        issued as (
          insert into idp_session_token (token_hash, user_id, expires_at)
          select ${oneTimeTokenHash(sessionToken)}::text, ${userId}::text, now() + make_interval(secs => ${ttlSeconds})
          from state where not locked and not factor_asked
          returning expires_at
        )
        select state.locked, issued.expires_at from state left join issued on true`.execute(db);
      const { locked, expires_at } = rows[0]!;
      return expires_at ? { locked, token: { sessionToken, expiresAt: expires_at } } : { locked };
    },

    /**
     * Presents the token for the IdP session `sessionUid`, in one statement: redeems it (of any number
     * of concurrent presentations exactly one does), or finds that this very session redeemed it
     * before (`again`: okta-auth-js presents the same token in the full-page redirect after the hidden
     * iframe). Undefined for a token that is unknown, expired, or redeemed by another session.
     */
    async present(token: string, sessionUid: string): Promise<PresentedSessionToken | undefined> {
      const [row] = await presenting(db, oneTimeTokenHash(token), sessionUid);
      if (!row) return undefined;
      const { user_id, amr, authenticated_at, again, ...user } = row;
      return {
        userId: user_id,
        again,
        ...(user.id !== null ? { user: toUser(user as Parameters<typeof toUser>[0]) } : {}),
        ...(amr && authenticated_at
          ? { authentication: { amr: amr.split(','), authenticatedAt: authenticated_at } }
          : {}),
      };
    },

    async revokeAll(userId: string): Promise<void> {
      await db.deleteFrom('idp_session_token').where('user_id', '=', userId).execute();
    },
  };
}

export type SessionTokenRepository = ReturnType<typeof createSessionTokenRepository>;
