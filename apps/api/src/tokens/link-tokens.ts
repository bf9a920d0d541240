import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { ApiDatabase, LinkPurpose } from '../db/schema.js';

/** How long an e-mailed link works: a sign-in link at most 10 minutes (security checklist), a reset 30. */
export const LINK_TOKEN_TTL_MINUTES: Record<LinkPurpose, number> = {
  password_reset: 30,
  magic_link: 10,
};

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export interface IssuedLinkToken {
  /** The token for the link; only its hash is stored. */
  token: string;
  /** Names this issue (not the token): the idempotency key of the e-mail that carries it. */
  id: string;
  expiresAt: Date;
}

export interface ConsumedLinkToken {
  idpUserId: string;
  returnTo: string | null;
}

/**
 * One-time tokens e-mailed as links, for a user of the bundled identity provider: 256 random bits,
 * stored as sha-256, consumed once in one statement. A user has at most one usable token per purpose.
 */
export function linkTokenStore(db: Kysely<ApiDatabase>) {
  return {
    /**
     * Issues a token in `trx` (the transaction that enqueues the e-mail carrying it). An unconsumed
     * token of the same user and purpose is replaced in the same statement, so the older link stops
     * working, and two concurrent issues leave exactly one usable token.
     */
    async issue(
      trx: Transaction<ApiDatabase> | Kysely<ApiDatabase>,
      input: { purpose: LinkPurpose; idpUserId: string; returnTo: string | null },
    ): Promise<IssuedLinkToken> {
      const token = randomBytes(32).toString('base64url');
      const expiresAt = sql<Date>`now() + make_interval(mins => ${LINK_TOKEN_TTL_MINUTES[input.purpose]})`;
      const row = await trx
        .insertInto('link_token')
        .values({
          id: randomUUID(),
          token_hash: hash(token),
          purpose: input.purpose,
          idp_user_id: input.idpUserId,
          return_to: input.returnTo,
          expires_at: expiresAt,
        })
        .onConflict((oc) =>
          oc
            .columns(['idp_user_id', 'purpose'])
            .where('consumed_at', 'is', null)
            .doUpdateSet((eb) => ({
              id: eb.ref('excluded.id'),
              token_hash: eb.ref('excluded.token_hash'),
              return_to: eb.ref('excluded.return_to'),
              expires_at: eb.ref('excluded.expires_at'),
              created_at: sql<Date>`now()`,
            })),
        )
        .returning(['id', 'expires_at'])
        .executeTakeFirstOrThrow();
      return { token, id: row.id, expiresAt: row.expires_at };
    },

    /** Consumes in one statement, so of any number of concurrent redemptions exactly one wins. */
    async consume(purpose: LinkPurpose, token: string): Promise<ConsumedLinkToken | undefined> {
      const row = await db
        .updateTable('link_token')
        .set({ consumed_at: sql<Date>`now()` })
        .where('token_hash', '=', hash(token))
        .where('purpose', '=', purpose)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`)
        .returning(['idp_user_id', 'return_to'])
        .executeTakeFirst();
      return row && { idpUserId: row.idp_user_id, returnTo: row.return_to };
    },

    /** Whether the token would be consumed now: known, unused, unexpired. Spends nothing. */
    async isUsable(purpose: LinkPurpose, token: string): Promise<boolean> {
      const row = await db
        .selectFrom('link_token')
        .select('id')
        .where('token_hash', '=', hash(token))
        .where('purpose', '=', purpose)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Voids every unconsumed link of the user (after a password change: earlier links must not work). */
    async voidAllOf(idpUserId: string): Promise<void> {
      await db
        .deleteFrom('link_token')
        .where('idp_user_id', '=', idpUserId)
        .where('consumed_at', 'is', null)
        .execute();
    },
  };
}

export type LinkTokenStore = ReturnType<typeof linkTokenStore>;
