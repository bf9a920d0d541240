import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { INVITATION_LIFETIME_DAYS } from '@customer-core/contracts';
import type { ApiDatabase } from '../db/schema.js';
import { newOneTimeToken, oneTimeTokenHash } from '@customer-core/database';

export interface IssuedInvitation {
  /** The token for the registration link; only its hash is stored. */
  token: string;
  /** Names this invitation (not the token): the idempotency key of the e-mail that carries it. */
  id: string;
  expiresAt: Date;
}

/** A usable invitation and the borrower it is for. */
export interface PendingInvitation {
  borrowerId: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  /** The borrower already has an identity (signed in some other way since the invitation). */
  linked: boolean;
  expiresAt: Date;
}

/**
 * Operators' invitations to register: 256 random bits e-mailed as a link, stored as sha-256, consumed
 * once in one statement. A borrower has at most one usable invitation (invitation_usable_idx).
 */
export function invitationRepository(db: Kysely<ApiDatabase>) {
  const usable = (token: string) =>
    db
      .selectFrom('invitation')
      .where('token_hash', '=', oneTimeTokenHash(token))
      .where('invitation.consumed_at', 'is', null)
      .where('invitation.expires_at', '>', sql<Date>`now()`);

  return {
    /** Runs `work` in one transaction, which the borrowers, the invitation and the outbox join. */
    transaction: <T>(work: (trx: Transaction<ApiDatabase>) => Promise<T>): Promise<T> =>
      db.transaction().execute(work),

    /**
     * Issues an invitation in `trx` (the transaction that enqueues its e-mail). The borrower's
     * unconsumed invitation is replaced in the same statement, so its link stops working, and two
     * concurrent invitations leave exactly one usable.
     */
    async issue(
      trx: Transaction<ApiDatabase>,
      input: { borrowerId: string; invitedBy: string },
    ): Promise<IssuedInvitation> {
      const token = newOneTimeToken();
      const row = await trx
        .insertInto('invitation')
        .values({
          id: randomUUID(),
          token_hash: oneTimeTokenHash(token),
          borrower_id: input.borrowerId,
          invited_by: input.invitedBy,
          expires_at: sql<Date>`now() + make_interval(days => ${INVITATION_LIFETIME_DAYS})`,
        })
        .onConflict((oc) =>
          oc
            .column('borrower_id')
            .where('consumed_at', 'is', null)
            .doUpdateSet((eb) => ({
              id: eb.ref('excluded.id'),
              token_hash: eb.ref('excluded.token_hash'),
              invited_by: eb.ref('excluded.invited_by'),
              expires_at: eb.ref('excluded.expires_at'),
              created_at: sql<Date>`now()`,
            })),
        )
        .returning(['id', 'expires_at'])
        .executeTakeFirstOrThrow();
      return { token, id: row.id, expiresAt: row.expires_at };
    },

    /** The usable invitation with this token, without consuming it. */
    async find(token: string): Promise<PendingInvitation | undefined> {
      const row = await usable(token)
        .innerJoin('borrower', 'borrower.id', 'invitation.borrower_id')
        .select([
          'borrower.id as borrower_id',
          'borrower.email',
          'borrower.first_name',
          'borrower.last_name',
          'borrower.idp_subject',
          'invitation.expires_at',
        ])
        .executeTakeFirst();
      return (
        row && {
          borrowerId: row.borrower_id,
          email: row.email,
          firstName: row.first_name,
          lastName: row.last_name,
          linked: row.idp_subject !== null,
          expiresAt: row.expires_at,
        }
      );
    },

    /** Consumes in one statement, so of any number of concurrent redemptions exactly one wins. */
    async consume(token: string): Promise<{ id: string; borrowerId: string } | undefined> {
      const row = await db
        .updateTable('invitation')
        .set({ consumed_at: sql<Date>`now()` })
        .where('token_hash', '=', oneTimeTokenHash(token))
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`)
        .returning(['id', 'borrower_id'])
        .executeTakeFirst();
      return row && { id: row.id, borrowerId: row.borrower_id };
    },

    /** Voids the borrower's unconsumed invitation (its address is no longer theirs), in `trx`. */
    async voidOf(borrowerId: string, trx: Kysely<ApiDatabase>): Promise<void> {
      await trx
        .deleteFrom('invitation')
        .where('borrower_id', '=', borrowerId)
        .where('consumed_at', 'is', null)
        .execute();
    },

    /**
     * Gives a consumed invitation back (registering with it did not happen), unless the operator has
     * invited the borrower again meanwhile: the newer invitation is then the one that works.
     */
    async release(id: string): Promise<void> {
      await db
        .updateTable('invitation')
        .set({ consumed_at: null })
        .where('id', '=', id)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('invitation as newer')
                .select(sql`1`.as('one'))
                .whereRef('newer.borrower_id', '=', 'invitation.borrower_id')
                .where('newer.consumed_at', 'is', null),
            ),
          ),
        )
        .execute();
    },
  };
}

export type InvitationRepository = ReturnType<typeof invitationRepository>;
