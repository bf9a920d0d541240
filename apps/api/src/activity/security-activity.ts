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
import type { Directory } from '../identity/directory.js';
import { approximateAddress, deviceOf, USER_AGENT_MAX_LENGTH } from './device.js';
import {
  securityEventValues,
  type SecurityEventRepository,
  type SecurityEventRow,
} from './security-event-repository.js';
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

/** What is kept of an event: the device's User-Agent cut, its address reduced to its network. */
function rowOf(event: NewSecurityEvent): SecurityEventRow {
  return {
    kind: event.kind,
    sessionId: event.sessionId ?? null,
    method: event.method ?? null,
    endedBy: event.endedBy ?? null,
    factor: event.factor ?? null,
    userAgent: event.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) || null,
    clientNetwork:
      event.clientNetwork ?? (event.clientAddress ? approximateAddress(event.clientAddress) : null),
  };
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
export function securityActivity(repository: SecurityEventRepository, directory: Directory) {
  /** The directory's entries of these borrowers in the last 90 days. */
  async function signInTrouble(owners: ActivityOwner[], since: Date): Promise<SecurityEvent[]> {
    const entries: SecurityEvent[] = [];
    for (const owner of owners) {
      if (!owner.idpSubject || owner.idpIssuer !== directory.issuer) continue;
      const trouble = await directory.signInTrouble(owner.idpSubject, since);
      if (trouble.length === 0) continue;
      const signIns = await repository.signInTimes(owner.id, since);
      entries.push(...signInTroubleEntries(trouble, signIns));
    }
    return entries;
  }

  return {
    async record(borrowerId: string, event: NewSecurityEvent): Promise<void> {
      await repository.insert(borrowerId, rowOf(event));
    },

    /**
     * The event's row, for a module that records it in the statement of its own write (a sign-in's
     * session and its signed_in event are one statement): recorded exactly as `record` would.
     */
    rowToInsert: (borrowerId: string, event: NewSecurityEvent) =>
      securityEventValues(borrowerId, rowOf(event)),

    /** One page of the borrowers' events of the last 90 days, newest first, older than `after`. */
    async page(
      owners: ActivityOwner[],
      { after, limit }: { after?: ActivityCursor | undefined; limit: number },
    ): Promise<SecurityActivityPage> {
      const borrowerIds = owners.map((owner) => owner.id);
      if (borrowerIds.length === 0) return { events: [], next: null };
      const since = new Date(Date.now() - SECURITY_ACTIVITY_DAYS * 24 * 60 * 60 * 1000);
      // One more than the page holds: whether there is a next page.
      const rows = await repository.page(borrowerIds, { since, after, limit: limit + 1 });
      const recorded: SecurityEvent[] = rows.map((row) => ({
        id: row.id,
        kind: row.kind as SecurityEventKind,
        occurredAt: row.occurred_at.toISOString(),
        device: deviceOf(row.user_agent),
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
