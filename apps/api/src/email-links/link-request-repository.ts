import { sql, type Kysely, type Transaction } from 'kysely';
import type { ApiDatabase } from '../db/schema.js';

/** Inside a link request's transaction: a savepoint to roll its link back to. */
function linkRequestQueries(trx: Transaction<ApiDatabase>) {
  return {
    async savepoint(): Promise<void> {
      await sql`savepoint link_request`.execute(trx);
    },
    /** Undoes what was written since the savepoint (the link and its e-mail). */
    async rollbackToSavepoint(): Promise<void> {
      await sql`rollback to savepoint link_request`.execute(trx);
    },
    /** Keeps what was written since the savepoint. */
    async releaseSavepoint(): Promise<void> {
      await sql`release savepoint link_request`.execute(trx);
    },
  };
}

export type LinkRequestQueries = ReturnType<typeof linkRequestQueries>;

/**
 * The SQL of a request for an e-mailed link: its own statements are the savepoint around the link it
 * writes (the link tokens, request limits and outbox have theirs), all in one transaction.
 */
export function linkRequestRepository(db: Kysely<ApiDatabase>) {
  return {
    /** Runs `work` in one transaction: `tx` holds its savepoint, `trx` is for the others to join it. */
    transaction: <T>(
      work: (tx: LinkRequestQueries, trx: Transaction<ApiDatabase>) => Promise<T>,
    ): Promise<T> => db.transaction().execute((trx) => work(linkRequestQueries(trx), trx)),
  };
}

export type LinkRequestRepository = ReturnType<typeof linkRequestRepository>;
