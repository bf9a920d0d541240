import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { ApiDatabase, LinkPurpose } from '../db/schema.js';
import { newOneTimeToken, oneTimeTokenHash } from '@customer-core/database';

/**
 * How long an e-mailed link works: a sign-in link at most 10 minutes (security checklist), a reset
 * and an email change 30. A "This wasn't me" link a week: a borrower may read the notice days later,
 * and the link gives no more than its mailbox already can (a reset link on request), while ending
 * sessions.
 */
export const LINK_TOKEN_TTL_MINUTES: Record<LinkPurpose, number> = {
  password_reset: 30,
  magic_link: 10,
  email_change: 30,
  unrecognized_sign_in: 7 * 24 * 60,
};

export interface IssuedLinkToken {
  /** The token for the link; only its hash is stored. */
  token: string;
  /** Names this issue (not the token): the idempotency key of the e-mail that carries it. */
  id: string;
  expiresAt: Date;
}

export interface ConsumedLinkToken {
  /** For `release`, should what the link was for fail. */
  id: string;
  idpUserId: string;
  returnTo: string | null;
  /** The address an email change link confirms. */
  newEmail: string | null;
}

/**
 * One-time tokens e-mailed as links, for a user of the bundled identity provider: 256 random bits,
 * stored as sha-256. A user may hold several usable tokens of one purpose (asking for a link, which
 * anyone can do for any address, must not void the one the borrower holds); using one voids the others.
 */
export function linkTokenRepository(db: Kysely<ApiDatabase>) {
  return {
    /** Issues a token, in `trx` when given (the transaction that enqueues the e-mail carrying it). */
    async issue(
      input: { purpose: LinkPurpose; idpUserId: string; returnTo: string | null; newEmail?: string },
      trx: Kysely<ApiDatabase> = db,
    ): Promise<IssuedLinkToken> {
      const token = newOneTimeToken();
      const row = await trx
        .insertInto('link_token')
        .values({
          id: randomUUID(),
          token_hash: oneTimeTokenHash(token),
          purpose: input.purpose,
          idp_user_id: input.idpUserId,
          return_to: input.returnTo,
          new_email: input.newEmail ?? null,
          expires_at: sql<Date>`now() + make_interval(mins => ${LINK_TOKEN_TTL_MINUTES[input.purpose]})`,
        })
        .returning(['id', 'expires_at'])
        .executeTakeFirstOrThrow();
      return { token, id: row.id, expiresAt: row.expires_at };
    },

    /**
     * Consumes the token and voids the user's other links of the same purpose, atomically: every usable
     * link of that user and purpose is locked first, always in the same order, so concurrent redemptions
     * of the same link or of different ones queue there, and exactly one of them succeeds. With
     * `ownedBy`, another user's link is left as it is and answered as a dead one.
     */
    async consume(
      purpose: LinkPurpose,
      token: string,
      ownedBy?: string,
    ): Promise<ConsumedLinkToken | undefined> {
      const tokenHash = oneTimeTokenHash(token);
      return db.transaction().execute(async (trx) => {
        const owner = await trx
          .selectFrom('link_token')
          .select('idp_user_id')
          .where('token_hash', '=', tokenHash)
          .where('purpose', '=', purpose)
          .$if(ownedBy !== undefined, (query) => query.where('idp_user_id', '=', ownedBy!))
          .executeTakeFirst();
        if (!owner) return undefined;
        const usable = await trx
          .selectFrom('link_token')
          .select(['id', 'token_hash', 'return_to', 'new_email', sql<boolean>`expires_at > now()`.as('live')])
          .where('idp_user_id', '=', owner.idp_user_id)
          .where('purpose', '=', purpose)
          .where('consumed_at', 'is', null)
          .orderBy('id')
          .forUpdate()
          .execute();
        const used = usable.find((row) => row.token_hash === tokenHash && row.live);
        if (!used) return undefined;
        await trx
          .updateTable('link_token')
          .set({ consumed_at: sql<Date>`now()` })
          .where('id', '=', used.id)
          .execute();
        const others = usable.filter((row) => row.id !== used.id).map((row) => row.id);
        if (others.length > 0) await trx.deleteFrom('link_token').where('id', 'in', others).execute();
        return {
          id: used.id,
          idpUserId: owner.idp_user_id,
          returnTo: used.return_to,
          newEmail: used.new_email,
        };
      });
    },

    /** Whether the token would be consumed now: known, unused, unexpired. Spends nothing. */
    async isUsable(purpose: LinkPurpose, token: string): Promise<boolean> {
      const row = await db
        .selectFrom('link_token')
        .select('id')
        .where('token_hash', '=', oneTimeTokenHash(token))
        .where('purpose', '=', purpose)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Gives a consumed token back: what it was spent on failed (a password the directory refused). */
    async release(id: string): Promise<void> {
      await db.updateTable('link_token').set({ consumed_at: null }).where('id', '=', id).execute();
    },

    /**
     * Voids every unconsumed link of the user, of every purpose (after a password change or an email
     * change: earlier links must not work), in `trx` when given.
     */
    async voidAllOf(idpUserId: string, trx: Kysely<ApiDatabase> = db): Promise<void> {
      await trx
        .deleteFrom('link_token')
        .where('idp_user_id', '=', idpUserId)
        .where('consumed_at', 'is', null)
        .execute();
    },
  };
}

export type LinkTokenRepository = ReturnType<typeof linkTokenRepository>;
