import { isIPv4, isIPv6 } from 'node:net';
import { sql, type Kysely } from 'kysely';
import { LOG_EVENT_TYPES, networkOf, type LogEventType } from '@customer-core/contracts/server';
import type { IdpDatabase } from './schema.js';

export interface SecurityLogEvent {
  id: string;
  userId: string;
  eventType: LogEventType;
  outcome: 'SUCCESS' | 'FAILURE';
  reason: string | null;
  /** The client's network as an address (an IPv4 /24's or an IPv6 /64's first), never the full one. */
  clientNetwork: string | null;
  userAgent: string | null;
  published: Date;
}

const USER_AGENT_MAX_LENGTH = 512;

/**
 * The network a failure came from, written as its first address: "198.51.100.0", "2001:db8:1:2::";
 * null for what is no address (a forwarded header's words), which the System Log never repeats.
 */
export function networkAddress(network: string): string | null {
  if (isIPv4(network)) return `${network.slice(0, network.lastIndexOf('.'))}.0`;
  const v6 = network.replace(/\/64$/, '');
  return isIPv6(v6) ? networkOf(v6).replace(/\/64$/, '') : null;
}

/**
 * Failed sign-ins and lockouts, kept for the borrower's security activity and read back in the
 * shape of Okta's System Log. One row per attempt, as Okta records them; readers group streaks.
 */
export function createSecurityLogRepository(db: Kysely<IdpDatabase>) {
  return {
    /** A wrong password (or code) for the user; a lockout it started. An id that is no user's records nothing. */
    async recordFailure(
      userId: string,
      network: string,
      { lockedNow, userAgent }: { lockedNow: boolean; userAgent?: string | undefined },
    ): Promise<void> {
      const clientNetwork = networkAddress(network);
      const agent = userAgent?.slice(0, USER_AGENT_MAX_LENGTH) || null;
      // A lockout is published a millisecond after the failure that started it: both are written in one
      // statement, from one now(), so the log's order (published, then a random id) says which came
      // first whatever the clock does between two statements.
      const lock = lockedNow ? sql`, (${LOG_EVENT_TYPES.lock}::text, 'SUCCESS', null::text, 1)` : sql``;
      await sql`
        insert into idp_security_event
          (user_id, event_type, outcome, reason, client_network, user_agent, published)
        select idp_user.id, event.type, event.outcome, event.reason, ${clientNetwork}::text, ${agent}::text,
               date_trunc('milliseconds', now()) + event.later * interval '1 millisecond'
        from idp_user,
             (values (${LOG_EVENT_TYPES.signIn}::text, 'FAILURE', 'INVALID_CREDENTIALS'::text, 0)${lock})
               as event (type, outcome, reason, later)
        where idp_user.id = ${userId}`.execute(db);
    },

    /** Events in published order, filtered as the System Log API is asked. */
    async find(query: {
      userIds?: string[] | undefined;
      eventTypes?: string[] | undefined;
      outcomes?: string[] | undefined;
      since: Date;
      until: Date;
      descending: boolean;
      /** Events after this one in the order asked (the `after` cursor). */
      after?: { published: Date; id: string } | undefined;
      limit: number;
    }): Promise<SecurityLogEvent[]> {
      let select = db
        .selectFrom('idp_security_event')
        .selectAll()
        .where('published', '>=', query.since)
        .where('published', '<', query.until);
      if (query.userIds) select = select.where('user_id', 'in', query.userIds.length ? query.userIds : ['']);
      if (query.eventTypes)
        select = select.where('event_type', 'in', query.eventTypes.length ? query.eventTypes : ['']);
      if (query.outcomes)
        select = select.where('outcome', 'in', query.outcomes.length ? query.outcomes : ['']);
      const order = query.descending ? 'desc' : 'asc';
      if (query.after) {
        const { published, id } = query.after;
        select = select.where(
          query.descending
            ? sql<boolean>`(published, id) < (${published}::timestamptz, ${id})`
            : sql<boolean>`(published, id) > (${published}::timestamptz, ${id})`,
        );
      }
      const rows = await select.orderBy('published', order).orderBy('id', order).limit(query.limit).execute();
      return rows.map((row) => ({
        id: row.id,
        userId: row.user_id,
        eventType: row.event_type as LogEventType,
        outcome: row.outcome as 'SUCCESS' | 'FAILURE',
        reason: row.reason,
        clientNetwork: row.client_network,
        userAgent: row.user_agent,
        published: row.published,
      }));
    },
  };
}

export type SecurityLogRepository = ReturnType<typeof createSecurityLogRepository>;
