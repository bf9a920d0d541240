import { sql, type Kysely } from 'kysely';
import {
  encodeActivityCursor,
  SECURITY_ACTIVITY_DAYS,
  type ActivityCursor,
  type SecurityActivityPage,
  type SecurityEvent,
  type SecurityEventKind,
  type SessionEndedBy,
  type SecondFactorType,
  type SessionMethod,
} from '@customer-core/contracts';
import type { ApiDatabase } from '../db/schema.js';
import type { Directory } from '../identity/directory.js';
import { approximateAddress, describeDevice, USER_AGENT_MAX_LENGTH } from './device.js';
import { signInTroubleEntries } from './sign-in-trouble.js';

/** An event as recorded: what the borrower did and from which device. */
export interface NewSecurityEvent {
  kind: SecurityEventKind;
  sessionId?: string | null | undefined;
  method?: SessionMethod | null | undefined;
  endedBy?: SessionEndedBy | null | undefined;
  /** second_factor_added/removed: which kind of factor. */
  factor?: SecondFactorType | null | undefined;
  userAgent?: string | null | undefined;
  /** The full client address: only its network is kept. */
  clientAddress?: string | null | undefined;
  /** A network already reduced (a session's stored one). */
  clientNetwork?: string | null | undefined;
}

/** Where a change was made from: the borrower's device and address. */
export interface ChangeSource {
  clientAddress: string;
  userAgent: string | undefined;
}

/** Whose activity: a borrower, and the directory user who signs them in, if any. */
export interface ActivityOwner {
  id: string;
  idpIssuer: string | null;
  idpSubject: string | null;
}

/** Newest first: by time, then by id in code-unit order (the database compares with collation "C"). */
const newestFirst = (a: SecurityEvent, b: SecurityEvent) =>
  b.occurredAt.localeCompare(a.occurredAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

const olderThan = (event: SecurityEvent, cursor: ActivityCursor) => {
  const time = Date.parse(event.occurredAt);
  const at = cursor.occurredAt.getTime();
  return time < at || (time === at && event.id < cursor.id);
};

/**
 * The borrower's security events: written by the API where they happen (sign-in, session ended,
 * password changed), read newest first for the account page and operators, kept 90 days, merged
 * with the directory's failed sign-ins and lockouts (its System Log), which the API does not see.
 */
export function securityActivity(db: Kysely<ApiDatabase>, directory: Directory) {
  /** The directory's entries of these borrowers in the last 90 days. */
  async function signInTrouble(owners: ActivityOwner[], since: Date): Promise<SecurityEvent[]> {
    const entries: SecurityEvent[] = [];
    for (const owner of owners) {
      if (!owner.idpSubject || owner.idpIssuer !== directory.issuer) continue;
      const events = await directory.signInTrouble(owner.idpSubject, since);
      if (events.length === 0) continue;
      const signIns = await db
        .selectFrom('security_event')
        .select('occurred_at')
        .where('borrower_id', '=', owner.id)
        .where('kind', '=', 'signed_in')
        .where('occurred_at', '>=', since)
        .execute();
      entries.push(
        ...signInTroubleEntries(
          events,
          signIns.map((row) => row.occurred_at),
        ),
      );
    }
    return entries;
  }

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
          factor: event.factor ?? null,
          user_agent: event.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) || null,
          client_network:
            event.clientNetwork ?? (event.clientAddress ? approximateAddress(event.clientAddress) : null),
        })
        .execute();
    },

    /** One page of the borrowers' events of the last 90 days, newest first, older than `after`. */
    async page(
      owners: ActivityOwner[],
      { after, limit }: { after?: ActivityCursor | undefined; limit: number },
    ): Promise<SecurityActivityPage> {
      const borrowerIds = owners.map((owner) => owner.id);
      if (borrowerIds.length === 0) return { events: [], next: null };
      const since = new Date(Date.now() - SECURITY_ACTIVITY_DAYS * 24 * 60 * 60 * 1000);
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
      const rows = await query
        .orderBy('occurred_at', 'desc')
        .orderBy(sql`id::text collate "C"`, 'desc')
        .limit(limit + 1)
        .execute();
      const recorded: SecurityEvent[] = rows.map((row) => ({
        id: row.id,
        kind: row.kind as SecurityEventKind,
        occurredAt: row.occurred_at.toISOString(),
        device: describeDevice(row.user_agent),
        approximateAddress: row.client_network,
        method: (row.method as SessionMethod | null) ?? null,
        endedBy: (row.ended_by as SessionEndedBy | null) ?? null,
        attempts: null,
        ...(row.factor ? { factor: row.factor as SecondFactorType } : {}),
      }));
      const trouble = (await signInTrouble(owners, since)).filter(
        (event) => Date.parse(event.occurredAt) > since.getTime() && (!after || olderThan(event, after)),
      );
      const merged = [...recorded, ...trouble].sort(newestFirst);
      const events = merged.slice(0, limit);
      const last = events.at(-1);
      return { events, next: merged.length > limit && last ? encodeActivityCursor(last) : null };
    },
  };
}

export type SecurityActivity = ReturnType<typeof securityActivity>;
