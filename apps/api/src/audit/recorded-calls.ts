import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AUDIT_REASON_HEADER, AUDIT_REASON_REFUSAL, AuditReasonSchema } from '@customer-core/contracts';
import { clientAddress } from '@customer-core/contracts/server';
import { HttpError } from '../http/http-error.js';
import { namedPlugin } from '../http/route-module.js';
import type { AuditValue } from './audit-record.js';
import type { AuditTrail } from './audit-trail.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** What a handler adds to its call's audit record: the state before and after its change. */
    auditChange?: { before?: AuditValue; after?: AuditValue };
    /**
     * Who made a call that carries no credential, as its handler learnt it: the borrower of an
     * e-mailed link used. Only a call that sets it is recorded.
     */
    auditCaller?: AuditCaller;
  }
}

export interface AuditCaller {
  actor: string;
  role: string;
  target?: string;
}

/** Who a call was made by, as its module's access check established; null for a call refused before. */
export type CallerOf = (request: FastifyRequest) => AuditCaller | null;

/** A borrower as the actor and the target of their own call. */
export const borrowerCaller = (borrowerId: string): AuditCaller => ({
  actor: `borrower:${borrowerId}`,
  role: 'borrower',
  target: `borrower:${borrowerId}`,
});

export interface RecordedCalls {
  callerOf: CallerOf;
  /** Record reads too (who looked at what), or changes only. */
  reads: boolean;
  /** Put the call's validated fields in the record: never where they hold a password or a code. */
  requestFields: boolean;
  /** Take the caller's reason from the audit-reason header (operators: the CLI's --reason). */
  reasons: boolean;
  trustProxy: boolean;
}

/**
 * Records every call to the routes registered after it in this plugin's scope in the audit trail,
 * before the answer goes out: who, what, to what, the outcome (a refusal too), the reason given in the
 * audit-reason header (where `reasons`), the client's address and the request id. A reason that is not
 * one line of at most 500 characters is refused before the call runs.
 */
export function recordCalls(app: FastifyInstance, trail: AuditTrail, calls: RecordedCalls): void {
  /** The reason given, checked; undefined when none was. */
  const reasonOf = (request: FastifyRequest) => {
    const given = request.headers[AUDIT_REASON_HEADER];
    return given === undefined
      ? undefined
      : AuditReasonSchema.safeParse(Array.isArray(given) ? given.join(', ') : given);
  };
  if (calls.reasons)
    app.addHook('preHandler', async (request) => {
      if (reasonOf(request)?.success === false) throw new HttpError(400, 'bad_request', AUDIT_REASON_REFUSAL);
    });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!calls.reads && (request.method === 'GET' || request.method === 'HEAD')) return payload;
    const caller = calls.callerOf(request) ?? request.auditCaller;
    if (!caller) return payload;
    const reason = calls.reasons ? reasonOf(request) : undefined;
    await trail.record({
      actor: caller.actor,
      role: caller.role,
      action: `${request.method} ${request.routeOptions.url ?? request.url}`,
      target: caller.target ?? targetOf(request),
      outcome: reply.statusCode,
      // The fields of a call that was carried out: a refused one's may be anything a client sent.
      ...(calls.requestFields && reply.statusCode < 400 && request.body !== undefined
        ? { request: request.body as AuditValue }
        : {}),
      ...request.auditChange,
      reason: reason?.success && reason.data ? reason.data : null,
      clientAddress: clientAddress(request, calls.trustProxy),
      requestId: request.id,
    });
    return payload;
  });
}

/** What an operator's call names: a path's id (a loan's reference, a session), else a borrower's address. */
function targetOf(request: FastifyRequest): string | null {
  const params = Object.entries((request.params ?? {}) as Record<string, unknown>);
  if (params.length > 0) return named(params.map(([name, value]) => `${name}:${String(value)}`).join(' '));
  for (const source of [request.query, request.body]) {
    const email = (source as { email?: unknown } | undefined)?.email;
    if (typeof email === 'string') return named(`email:${email.toLowerCase()}`);
  }
  return null;
}

/**
 * A refused call's target is what the client sent, unchecked: kept readable and storable (no control
 * character or lone surrogate, which PostgreSQL's text refuses), and short.
 */
const MAX_TARGET = 320;
const named = (target: string) => target.slice(0, MAX_TARGET).replace(/[\p{Cc}\p{Cs}]/gu, '\uFFFD');

/** A module's plugin whose calls are recorded (recordCalls) before its routes are registered. */
export function auditedModule<D>(
  module: (deps: D) => FastifyPluginAsyncZod,
  calls: Omit<RecordedCalls, 'trustProxy'>,
) {
  return (deps: D & { auditTrail: AuditTrail; trustProxy: boolean }): FastifyPluginAsyncZod =>
    namedPlugin('recorded calls', async (app) => {
      recordCalls(app, deps.auditTrail, { ...calls, trustProxy: deps.trustProxy });
      await app.register(module(deps));
    });
}
