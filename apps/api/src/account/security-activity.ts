import { sql, type Kysely } from 'kysely';
import {
  encodeActivityCursor,
  SECURITY_ACTIVITY_DAYS,
  type ActivityCursor,
  type SecurityActivityPage,
  type SecurityEvent,
  type SecurityEventKind,
  type SessionEndedBy,
  type SessionMethod,
} from '@customer-core/contracts';
import type { ApiDatabase } from '../db/schema.js';
import { approximateAddress, describeDevice, USER_AGENT_MAX_LENGTH } from './device.js';

/** An event as recorded: what the borrower did and from which device. */
export interface NewSecurityEvent {
  kind: SecurityEventKind;
  sessionId?: string | null | undefined;
  method?: SessionMethod | null | undefined;
  endedBy?: SessionEndedBy | null | undefined;
  userAgent?: string | null | undefined;
  /** The full client address: only its network is kept. */
  clientAddress?: string | null | undefined;
  /** A network already reduced (a session's stored one). */
  clientNetwork?: string | null | undefined;
}

/**
 * The borrower's security events: written by the API where they happen (sign-in, session ended,
 * password changed), read newest first for the account page and operators, kept 90 days.
 */
export function securityActivity(db: Kysely<ApiDatabase>) {
  return {
    async record(borrowerId: string, event: NewSecurityEvent): Promise<void> {
      await db
        .insertInto('security_event')
        .values({
          borrower_id: borrowerId,
          kind: event.kind,
          // To the millisecond, as the page cursor carries it (timestamptz keeps microseconds).
          occurred_at: new Date(),
          session_id: event.sessionId ?? null,
          method: event.method ?? null,
          ended_by: event.endedBy ?? null,
          user_agent: event.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) || null,
          client_network:
            event.clientNetwork ?? (event.clientAddress ? approximateAddress(event.clientAddress) : null),
        })
        .execute();
    },

    /** One page of the borrowers' events of the last 90 days, newest first, older than `after`. */
    async page(
      borrowerIds: string[],
      { after, limit }: { after?: ActivityCursor | undefined; limit: number },
    ): Promise<SecurityActivityPage> {
      if (borrowerIds.length === 0) return { events: [], next: null };
      let query = db
        .selectFrom('security_event')
        .select(['id', 'kind', 'occurred_at', 'method', 'ended_by', 'user_agent', 'client_network'])
        .where('borrower_id', 'in', borrowerIds)
        .where('occurred_at', '>', sql<Date>`now() - make_interval(days => ${SECURITY_ACTIVITY_DAYS})`);
      if (after) {
        query = query.where(
          sql<boolean>`(occurred_at, id::text) < (${after.occurredAt}::timestamptz, ${after.id})`,
        );
      }
      const rows = await query
        .orderBy('occurred_at', 'desc')
        .orderBy(sql`id::text`, 'desc')
        .limit(limit + 1)
        .execute();
      const events: SecurityEvent[] = rows.slice(0, limit).map((row) => ({
        id: row.id,
        kind: row.kind as SecurityEventKind,
        occurredAt: row.occurred_at.toISOString(),
        device: describeDevice(row.user_agent),
        approximateAddress: row.client_network,
        method: (row.method as SessionMethod | null) ?? null,
        endedBy: (row.ended_by as SessionEndedBy | null) ?? null,
        attempts: null,
      }));
      const last = events.at(-1);
      return { events, next: rows.length > limit && last ? encodeActivityCursor(last) : null };
    },
  };
}

export type SecurityActivity = ReturnType<typeof securityActivity>;
