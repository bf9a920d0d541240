import { sql, type Kysely, type Transaction } from 'kysely';
import type { ApiDatabase } from '../db/schema.js';

/** Inside an email change request's transaction: a savepoint to roll its link back to. */
function emailChangeRequestQueries(trx: Transaction<ApiDatabase>) {
  return {
    async savepoint(): Promise<void> {
      await sql`savepoint email_change_request`.execute(trx);
    },
    /** Undoes what was written since the savepoint (the link and its e-mail). */
    async rollbackToSavepoint(): Promise<void> {
      await sql`rollback to savepoint email_change_request`.execute(trx);
    },
    /** Keeps what was written since the savepoint. */
    async releaseSavepoint(): Promise<void> {
      await sql`release savepoint email_change_request`.execute(trx);
    },
  };
}

export type EmailChangeRequestQueries = ReturnType<typeof emailChangeRequestQueries>;

/**
 * The SQL of an email change request: its own statements are the savepoint around the link it writes
 * (the link tokens, request limits and outbox have theirs), all in one transaction. Confirming a change
 * runs the borrower's new address and the voiding of what went to the old one in one transaction too.
 */
export function emailChangeRepository(db: Kysely<ApiDatabase>) {
  return {
    /** Runs `work` in one transaction: `tx` holds its savepoint, `trx` is for the others to join it. */
    transaction: <T>(
      work: (tx: EmailChangeRequestQueries, trx: Transaction<ApiDatabase>) => Promise<T>,
    ): Promise<T> => db.transaction().execute((trx) => work(emailChangeRequestQueries(trx), trx)),
  };
}

export type EmailChangeRepository = ReturnType<typeof emailChangeRepository>;
