import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { EARLIEST_INSTANT, instantSchema, isStorableInstant } from '@customer-core/contracts';
import { LOG_EVENT_TYPES, type LogEventSchema } from '@customer-core/contracts/server';
import { sendOktaError } from './okta-error-handler.js';
import { malformedRequest } from './okta-errors.js';
import type { SecurityLogRepository, SecurityLogEvent } from './security-log-repository.js';
import type { IdpUser, UserRepository } from './user-repository.js';

export const LOGS_PATH = '/api/v1/logs';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
const DEFAULT_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/** The LogEvent fields a filter may name, and how each is read from an event. */
const FILTER_FIELDS: Record<string, (event: SecurityLogEvent) => string | null> = {
  uuid: (e) => e.id,
  eventType: (e) => e.eventType,
  'actor.id': (e) => e.userId,
  'outcome.result': (e) => e.outcome,
  'outcome.reason': (e) => e.reason,
};

type Predicate = (event: SecurityLogEvent) => boolean;

/**
 * Okta's filter expressions, the part a System Log reader uses: `field eq "value"` joined by `and`
 * and `or`, with parentheses. Anything else is refused, never half understood.
 */
export function parseLogFilter(filter: string): Predicate | string {
  const tokens = filter.match(/"(?:[^"\\]|\\.)*"|\(|\)|[^\s()"]+|"/g) ?? [];
  let at = 0;
  const fail = (why: string) => {
    throw new Error(why);
  };
  function term(): Predicate {
    if (tokens[at] === '(') {
      at++;
      const inner = or();
      if (tokens[at++] !== ')') fail('a parenthesis is not closed');
      return inner;
    }
    const field = tokens[at++] ?? '';
    const read = FILTER_FIELDS[field];
    if (!read) fail(`the filter cannot name ${field || 'nothing'}`);
    if (tokens[at++]?.toLowerCase() !== 'eq') fail('only the eq operator is supported');
    const quoted = tokens[at++] ?? '';
    if (!/^".*"$/.test(quoted) || quoted.length < 2) fail('values are written in double quotes');
    const value = JSON.parse(quoted) as string;
    return (event) => read!(event) === value;
  }
  function and(): Predicate {
    const parts = [term()];
    while (tokens[at]?.toLowerCase() === 'and') {
      at++;
      parts.push(term());
    }
    return (event) => parts.every((part) => part(event));
  }
  function or(): Predicate {
    const parts = [and()];
    while (tokens[at]?.toLowerCase() === 'or') {
      at++;
      parts.push(and());
    }
    return (event) => parts.some((part) => part(event));
  }
  try {
    const predicate = or();
    if (at !== tokens.length) fail('the filter has words after its end');
    return predicate;
  } catch (error) {
    return (error as Error).message;
  }
}

/** A LogEvent as Okta's System Log API answers it. */
export function oktaLogEvent(event: SecurityLogEvent, user: IdpUser | undefined) {
  const lock = event.eventType === LOG_EVENT_TYPES.lock;
  const answer = {
    uuid: event.id,
    published: event.published.toISOString(),
    eventType: event.eventType,
    version: '0',
    severity: lock || event.outcome === 'FAILURE' ? 'WARN' : 'INFO',
    legacyEventType: lock ? 'core.user.account.locked' : 'core.user_auth.login_failed',
    displayMessage: lock ? 'Max sign in attempts exceeded' : 'User login to Okta',
    actor: {
      id: event.userId,
      type: 'User',
      alternateId: user?.login ?? 'unknown',
      displayName: user ? `${user.firstName} ${user.lastName}`.trim() : 'unknown',
      detailEntry: null,
    },
    client: {
      userAgent: event.userAgent ? { rawUserAgent: event.userAgent, os: null, browser: null } : null,
      zone: 'null',
      device: null,
      id: null,
      // The network, not the client's own address: the provider never keeps that.
      ipAddress: event.clientNetwork,
      geographicalContext: null,
    },
    outcome: { result: event.outcome, reason: event.reason },
    target: null,
    transaction: { type: 'WEB', id: event.id, detail: {} },
    debugContext: { debugData: {} },
    authenticationContext: {
      authenticationProvider: null,
      credentialProvider: null,
      credentialType: null,
      issuer: null,
      interface: null,
      authenticationStep: 0,
      externalSessionId: null,
    },
    securityContext: { asNumber: null, asOrg: null, isp: null, domain: null, isProxy: null },
    request: { ipChain: [] },
  };
  // Every field the API reads of a LogEvent is in it.
  return answer satisfies z.input<typeof LogEventSchema>;
}

const encodeAfter = (event: SecurityLogEvent) => `${event.published.getTime().toString(36)}.${event.id}`;
function decodeAfter(after: string): { published: Date; id: string } | undefined {
  const match = /^([0-9a-z]{1,12})\.([0-9a-f-]{36})$/.exec(after);
  const time = match ? parseInt(match[1]!, 36) : NaN;
  // A time the database holds too: JavaScript's own range reaches past it.
  return match && isStorableInstant(time) ? { published: new Date(time), id: match[2]! } : undefined;
}

const INSTANT_PROBLEM =
  'since, until: ISO 8601 instants of the years 0001 to 9999, e.g. 2026-01-01T00:00:00.000Z';
const Instant = instantSchema(INSTANT_PROBLEM);

function instant(value: string | undefined): Date | undefined | null {
  if (value === undefined) return undefined;
  const parsed = Instant.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/**
 * Okta's System Log API (GET /api/v1/logs), the part the portal's directory reads: failed sign-ins
 * and lockouts, with `filter`, `since`, `until`, `limit`, `sortOrder` and `after` (Link rel="next").
 * Registered inside the Users API's context, behind its API-token guard and rate limit.
 */
export function registerSystemLogRoute(
  app: FastifyInstance,
  deps: { securityLog: SecurityLogRepository; users: UserRepository; orgUrl: string },
  routeOptions: object,
): void {
  app.get(LOGS_PATH, routeOptions, async (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.query as Record<string, string | string[] | undefined>;
    const problems: string[] = [];
    const one = (name: string) => {
      const value = query[name];
      if (Array.isArray(value)) problems.push(`${name}: give it once`);
      return Array.isArray(value) ? undefined : value;
    };
    const untilParam = instant(one('until'));
    const until = untilParam ?? new Date();
    const sinceParam = instant(one('since'));
    // The default window stops at the earliest instant the database holds.
    const since = sinceParam ?? new Date(Math.max(until.getTime() - DEFAULT_WINDOW_MS, EARLIEST_INSTANT));
    if (sinceParam === null || untilParam === null) problems.push(INSTANT_PROBLEM);
    const limitParam = one('limit');
    const limit = limitParam === undefined ? DEFAULT_LIMIT : Number(limitParam);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
      problems.push(`limit: a whole number from 1 to ${MAX_LIMIT}`);
    const sortOrder = one('sortOrder') ?? 'ASCENDING';
    if (sortOrder !== 'ASCENDING' && sortOrder !== 'DESCENDING')
      problems.push('sortOrder: ASCENDING or DESCENDING');
    const afterParam = one('after');
    const after = afterParam === undefined ? undefined : decodeAfter(afterParam);
    if (afterParam !== undefined && !after) problems.push('after: a cursor from a Link header');
    const filterParam = one('filter');
    const predicate = filterParam === undefined ? () => true : parseLogFilter(filterParam);
    if (typeof predicate === 'string') problems.push(`filter: ${predicate}`);
    if (problems.length > 0 || typeof predicate === 'string')
      return sendOktaError(reply, 400, malformedRequest(problems));

    // Read in the order asked, a batch at a time, until a page's worth passes the filter.
    const descending = sortOrder === 'DESCENDING';
    const page: SecurityLogEvent[] = [];
    let cursor = after;
    let more = false;
    for (;;) {
      const batch = await deps.securityLog.find({ since, until, descending, after: cursor, limit: 500 });
      for (const event of batch) {
        if (!predicate(event)) continue;
        if (page.length === limit) {
          more = true;
          break;
        }
        page.push(event);
      }
      if (more || batch.length < 500) break;
      const last = batch.at(-1)!;
      cursor = { published: last.published, id: last.id };
    }

    const users = new Map<string, IdpUser | undefined>();
    for (const event of page)
      if (!users.has(event.userId)) users.set(event.userId, await deps.users.findById(event.userId));
    const self = new URL(request.url, deps.orgUrl);
    const links = [`<${self.href}>; rel="self"`];
    if (more) {
      const next = new URL(self);
      next.searchParams.set('after', encodeAfter(page.at(-1)!));
      links.push(`<${next.href}>; rel="next"`);
    }
    reply.header('link', links);
    return reply.send(page.map((event) => oktaLogEvent(event, users.get(event.userId))));
  });
}
