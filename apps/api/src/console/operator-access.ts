import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import {
  CONSOLE_STEP_UP_SECONDS,
  roleAllows,
  STEP_UP_REQUIRED,
  type StaffAccess,
  type StaffRole,
} from '@customer-core/contracts';
import type { ServiceCredential } from '../config/service-credentials.js';
import { bearerTokenOf } from '../http/bearer.js';
import { HttpError } from '../http/http-error.js';
import { serviceWithScope } from '../http/service-credential.js';
import type { ProductTokens } from '../session/product-token.js';
import type { ConsoleSession, ConsoleSessionRepository } from './console-session-repository.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who of the staff may make an operators' call (the endpoint's `staff`); set by endpointRoute. */
    staff?: StaffAccess | null;
  }
  interface FastifyRequest {
    /** Who makes an operators' call: the operator service credential, or a signed-in staff member. */
    operator?: Operator;
  }
}

export type Operator =
  | { kind: 'service'; actor: string; role: 'operator'; name: string }
  | { kind: 'staff'; actor: string; role: StaffRole; session: ConsoleSession; authTime: number };

/** What the operators' calls are checked against: the operator credentials, and console sessions. */
export interface OperatorAccess {
  serviceCredentials: readonly ServiceCredential[];
  consoleTokens: ProductTokens;
  consoleSessions: Pick<ConsoleSessionRepository, 'findActive'>;
}

const unauthorized = () =>
  new HttpError(
    401,
    'unauthorized',
    'This call needs the operator credential, or a staff member signed in to the console.',
  );

/**
 * The onRequest hook of every operators' call, before its body is read: the operator service
 * credential may make any; a staff member's console token, those their role allows (the endpoint's
 * `staff.role`; admin may make support's too), the destructive ones only within CONSOLE_STEP_UP_SECONDS
 * of signing in. A borrower's token (ours, for the borrower's API) is 403, never a way in.
 */
export function requireOperator(access: OperatorAccess): onRequestAsyncHookHandler {
  return async (request) => {
    const presented = bearerTokenOf(request);
    if (!presented) throw unauthorized();
    request.operator = asService(request, access, presented) || (await asStaff(request, access, presented));
  };
}

/** Who made an operators' call, for the audit trail (null: refused before it was known). */
export const operatorCaller = (request: FastifyRequest) =>
  request.operator ? { actor: request.operator.actor, role: request.operator.role } : null;

/** The operator whose call this is (requireOperator always runs first). */
export function operatorOf(request: FastifyRequest): Operator {
  if (!request.operator) throw new Error('requireOperator did not run for this route');
  return request.operator;
}

function asService(request: FastifyRequest, access: OperatorAccess, presented: string) {
  const name = serviceWithScope(request, presented, access.serviceCredentials, 'operator');
  return name && ({ kind: 'service', actor: `service:${name}`, role: 'operator', name } as const);
}

async function asStaff(
  request: FastifyRequest,
  access: OperatorAccess,
  presented: string,
): Promise<Operator> {
  const verified = await access.consoleTokens.verify(presented);
  if (!verified.ok) {
    if (verified.problem === 'wrong_audience') {
      request.log.warn('a borrower token was presented to an operators call');
      throw new HttpError(403, 'forbidden', 'A borrower’s token does not open the staff console.');
    }
    if (verified.problem === 'expired')
      throw new HttpError(401, 'invalid_token', 'The console sign-in has ended. Sign in again.');
    throw unauthorized();
  }
  const session = await access.consoleSessions.findActive(verified.claims.sid);
  if (!session) throw new HttpError(401, 'invalid_token', 'The console sign-in has ended. Sign in again.');
  const staff: Operator = {
    kind: 'staff',
    actor: `staff:${session.email}`,
    role: session.role,
    session,
    authTime: verified.claims.auth_time,
  };
  // Known from here on: a call their role or an old sign-in refuses is in the audit trail under them.
  request.operator = staff;
  const needed = request.routeOptions.config.staff ?? { role: 'admin', stepUp: false };
  if (!roleAllows(session.role, needed.role)) {
    request.log.warn({ staff: session.email, role: session.role, needs: needed.role }, 'staff role refused');
    throw new HttpError(403, 'forbidden', `This needs the ${needed.role} role.`);
  }
  if (needed.stepUp && Math.floor(Date.now() / 1000) - verified.claims.auth_time > CONSOLE_STEP_UP_SECONDS)
    throw new HttpError(403, STEP_UP_REQUIRED, 'Confirm it’s you: sign in again to do this.');
  return staff;
}
