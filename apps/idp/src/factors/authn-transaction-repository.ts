import { sql, type Kysely } from 'kysely';
import { newOneTimeToken, oneTimeTokenHash } from '@customer-core/database';
import type { AuthnFactorStatus } from '@customer-core/contracts/server';
import type { IdpDatabase } from '../schema.js';

/** The provider keeps a transaction only while a second factor, or its enrolment, comes next. */
export type TransactionStatus = AuthnFactorStatus;

export interface AuthnTransaction {
  userId: string;
  status: TransactionStatus;
  factorId: string | null;
  /** How the user proved who they are before the second factor (RFC 8176 amr values). */
  primaryAmr: string[];
  expiresAt: Date;
}

const hashOf = oneTimeTokenHash;

/** A password (RFC 8176): what a transaction began with unless it says otherwise. */
export const PASSWORD_AMR = ['pwd'];

const amrOf = (stored: string | null) => (stored ? stored.split(',') : PASSWORD_AMR);

/** Okta's state tokens start with 00; a one-time token follows. */
const newStateToken = () => `00${newOneTimeToken()}`;

/**
 * The transactions between a password and a second factor. Each step names a new state token and
 * voids the one before (one statement: of two concurrent uses of a token exactly one moves on); a
 * token unused for `ttlSeconds` expires.
 */
export function createAuthnTransactionRepository(db: Kysely<IdpDatabase>, ttlSeconds: number) {
  const expiry = sql<Date>`now() + make_interval(secs => ${ttlSeconds})`;

  return {
    async start(
      userId: string,
      status: TransactionStatus,
      primaryAmr: string[] = PASSWORD_AMR,
    ): Promise<{ stateToken: string; transaction: AuthnTransaction }> {
      const stateToken = newStateToken();
      const row = await db
        .insertInto('idp_authn_transaction')
        .values({
          state_token_hash: hashOf(stateToken),
          user_id: userId,
          status,
          primary_amr: primaryAmr.join(','),
          expires_at: expiry,
        })
        .returning('expires_at')
        .executeTakeFirstOrThrow();
      return {
        stateToken,
        transaction: { userId, status, factorId: null, primaryAmr, expiresAt: row.expires_at },
      };
    },

    /** The unexpired transaction this state token is current for. */
    async find(stateToken: string): Promise<AuthnTransaction | undefined> {
      const row = await db
        .selectFrom('idp_authn_transaction')
        .selectAll()
        .where('state_token_hash', '=', hashOf(stateToken))
        .where('expires_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
      return (
        row && {
          userId: row.user_id,
          status: row.status as TransactionStatus,
          factorId: row.factor_id,
          primaryAmr: amrOf(row.primary_amr),
          expiresAt: row.expires_at,
        }
      );
    },

    /** Moves the transaction on to `status` under a new state token; undefined if the token was no longer current. */
    async advance(
      stateToken: string,
      status: TransactionStatus,
      factorId: string | null,
    ): Promise<{ stateToken: string; transaction: AuthnTransaction } | undefined> {
      const next = newStateToken();
      const row = await db
        .updateTable('idp_authn_transaction')
        .set({ state_token_hash: hashOf(next), status, factor_id: factorId, expires_at: expiry })
        .where('state_token_hash', '=', hashOf(stateToken))
        .where('expires_at', '>', sql<Date>`now()`)
        .returning(['user_id', 'primary_amr', 'expires_at'])
        .executeTakeFirst();
      return (
        row && {
          stateToken: next,
          transaction: {
            userId: row.user_id,
            status,
            factorId,
            primaryAmr: amrOf(row.primary_amr),
            expiresAt: row.expires_at,
          },
        }
      );
    },

    /** Ends the transaction; true for the one caller whose token was still current. */
    async end(stateToken: string): Promise<boolean> {
      const result = await db
        .deleteFrom('idp_authn_transaction')
        .where('state_token_hash', '=', hashOf(stateToken))
        .where('expires_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
      return result.numDeletedRows === 1n;
    },
  };
}

export type AuthnTransactionRepository = ReturnType<typeof createAuthnTransactionRepository>;
