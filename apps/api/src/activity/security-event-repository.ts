import { sql, type Insertable, type Kysely } from 'kysely';
import type {
  ActivityCursor,
  SecondFactorType,
  SecurityEventKind,
  SessionEndedBy,
  SessionMethod,
} from '@customer-core/contracts';
import type { ApiDatabase, SecurityEventTable } from '../db/schema.js';
import { eventClock } from './event-clock.js';

/** A security event's row as the API writes it: the device's User-Agent cut, its address reduced. */
export interface SecurityEventRow {
  kind: SecurityEventKind;
  sessionId: string | null;
  method: SessionMethod | null;
  endedBy: SessionEndedBy | null;
  factor: SecondFactorType | null;
  userAgent: string | null;
  clientNetwork: string | null;
}

// One for the process: the events of one request are written by one process.
const eventTimes = eventClock();

/** An event's row in security_event, as inserted (with another statement's write, or alone). */
export function securityEventValues(
  borrowerId: string,
  event: SecurityEventRow,
): Insertable<SecurityEventTable> {
  return {
    borrower_id: borrowerId,
    kind: event.kind,
    occurred_at: eventTimes.at(borrowerId),
    session_id: event.sessionId,
    method: event.method,
    ended_by: event.endedBy,
    factor: event.factor,
    user_agent: event.userAgent,
    client_network: event.clientNetwork,
  };
}

/** The SQL of the borrowers' security events (security_event). */
export function securityEventRepository(db: Kysely<ApiDatabase>) {
  return {
    async insert(borrowerId: string, event: SecurityEventRow): Promise<void> {
      await db.insertInto('security_event').values(securityEventValues(borrowerId, event)).execute();
    },

    /** Up to `limit` events of the borrowers since `since`, newest first, older than `after`. */
    page(
      borrowerIds: string[],
      { since, after, limit }: { since: Date; after?: ActivityCursor | undefined; limit: number },
    ) {
      let query = db
        .selectFrom('security_event')
        .select(['id', 'kind', 'occurred_at', 'method', 'ended_by', 'factor', 'user_agent', 'client_network'])
        .where('borrower_id', 'in', borrowerIds)
        .where('occurred_at', '>', since);
      if (after) {
        query = query.where(
          sql<boolean>`(occurred_at, id::text collate "C") < (${after.occurredAt}::timestamptz, ${after.id} collate "C")`,
        );
      }
      return query
        .orderBy('occurred_at', 'desc')
        .orderBy(sql`id::text collate "C"`, 'desc')
        .limit(limit)
        .execute();
    },

    /** When the borrower signed in since `since`. */
    async signInTimes(borrowerId: string, since: Date): Promise<Date[]> {
      const rows = await db
        .selectFrom('security_event')
        .select('occurred_at')
        .where('borrower_id', '=', borrowerId)
        .where('kind', '=', 'signed_in')
        .where('occurred_at', '>=', since)
        .execute();
      return rows.map((row) => row.occurred_at);
    },
  };
}

export type SecurityEventRepository = ReturnType<typeof securityEventRepository>;
