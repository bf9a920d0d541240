import { sql, type Kysely, type Selectable } from 'kysely';
import type { StaffRole } from '@customer-core/contracts';
import type { ApiDatabase, ConsoleSessionTable } from '../db/schema.js';

/** A staff member's sign-in to the console. */
export interface ConsoleSession {
  id: string;
  issuer: string;
  subject: string;
  email: string;
  name: string;
  role: StaffRole;
  createdAt: Date;
  expiresAt: Date;
}

const toSession = (row: Selectable<ConsoleSessionTable>): ConsoleSession => ({
  id: row.id,
  issuer: row.idp_issuer,
  subject: row.idp_subject,
  email: row.email,
  name: row.name,
  role: row.role,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function consoleSessionRepository(db: Kysely<ApiDatabase>) {
  return {
    async begin(session: Omit<ConsoleSession, 'createdAt'> & { clientAddress: string | null }) {
      const row = await db
        .insertInto('console_session')
        .values({
          id: session.id,
          idp_issuer: session.issuer,
          idp_subject: session.subject,
          email: session.email,
          name: session.name,
          role: session.role,
          client_address: session.clientAddress,
          expires_at: session.expiresAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toSession(row);
    },

    /** The session while it lasts: not signed out, not ended by a change of role, not expired. */
    async findActive(id: string): Promise<ConsoleSession | undefined> {
      if (!UUID.test(id)) return undefined;
      const row = await db
        .selectFrom('console_session')
        .selectAll()
        .where('id', '=', id)
        .where('ended_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
      return row && toSession(row);
    },

    /** Signs the session out; false when it had ended already. */
    async end(id: string): Promise<boolean> {
      const result = await db
        .updateTable('console_session')
        .set({ ended_at: sql<Date>`now()` })
        .where('id', '=', id)
        .where('ended_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Ends every session of the staff member (their role changed or was taken away); how many. */
    async endAllOf(issuer: string, subject: string): Promise<number> {
      const result = await db
        .updateTable('console_session')
        .set({ ended_at: sql<Date>`now()` })
        .where('idp_issuer', '=', issuer)
        .where('idp_subject', '=', subject)
        .where('ended_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}

export type ConsoleSessionRepository = ReturnType<typeof consoleSessionRepository>;
