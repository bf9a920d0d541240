import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { OktaError } from '@customer-core/contracts/server';
import { isConnectionLoss } from '@customer-core/database';
import { internalError, malformedRequest, rateLimited, temporarilyUnavailable } from './okta-errors.js';
import { DATABASE_RETRY_AFTER_SECONDS } from './provider-events.js';

export function sendOktaError(reply: FastifyReply, status: number, body: OktaError) {
  return reply.code(status).header('Cache-Control', 'no-store').send(body);
}

/**
 * What Fastify or a handler throws (bad JSON, a wrong content type, a rate limit, a lost database, a
 * bug), answered in Okta's shape. `name` starts the log lines; `beforeSend` adds headers (CORS).
 */
export function oktaErrorHandler(
  name: string,
  beforeSend?: (request: FastifyRequest, reply: FastifyReply) => void,
) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    beforeSend?.(request, reply);
    const status = error.statusCode ?? 500;
    if (status === 429) return sendOktaError(reply, 429, rateLimited());
    if (status < 500) return sendOktaError(reply, status, malformedRequest());
    if (isConnectionLoss(error)) {
      request.log.warn(
        { err: { message: error.message, code: error.code } },
        `${name}: database unavailable`,
      );
      reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return sendOktaError(reply, 503, temporarilyUnavailable());
    }
    const body = internalError();
    request.log.error({ err: error, errorId: body.errorId }, `${name} failed unexpectedly`);
    return sendOktaError(reply, 500, body);
  };
}
