import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiError, ApiErrorCode } from '@customer-core/contracts';
import { isConnectionLoss } from '@customer-core/database';
import { DirectoryUnavailableError } from '../identity/directory.js';
import { HttpError } from './http-error.js';

const GENERIC_SERVER_ERROR = 'Something went wrong on our side. Please try again later.';
/** After a lost database connection: the next request gets a fresh one, usually at once. */
export const RETRY_AFTER_SECONDS = 2;

/** One place decides what a caller learns from a failure: 4xx explain, 5xx never leak details. */
export function installErrorHandlers(
  app: FastifyInstance,
  /** Told of each unexpected error (answered 500): the error-reporting service, in production. */
  reportUnexpected: (error: unknown, request: FastifyRequest) => void = () => {},
) {
  app.setErrorHandler<FastifyError | HttpError>((error, request, reply) => {
    if (error instanceof HttpError) {
      const refusal = {
        ...body(error.code, error.message),
        ...(error.reason ? { reason: error.reason } : {}),
      };
      if (declares(request, error.statusCode, refusal)) return reply.status(error.statusCode).send(refusal);
      // A refusal the endpoint's contract does not have is a fault of ours, not an answer to send.
      request.log.error(
        { status: error.statusCode, code: error.code },
        'refusal the endpoint does not declare',
      );
      reportUnexpected(error, request);
      return reply.status(500).send(ourFault('internal_error', request));
    }
    if (error instanceof DirectoryUnavailableError) {
      // The hosted org is down, slow or rate limiting us: not the borrower's fault, and worth a retry.
      request.log.warn({ err: { type: error.name, message: error.message } }, 'directory unavailable');
      return reply
        .status(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send({ ...body('service_unavailable', GENERIC_SERVER_ERROR), requestId: request.id });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const message = error.validation
        .map((issue) => {
          const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
          return field ? `${field}: ${issue.message}` : issue.message;
        })
        .join('; ');
      return reply.status(400).send(body('bad_request', message));
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      // Fastify's own client errors: malformed JSON (400), unsupported media type (415), body too large (413), rate limits (429)
      return reply.status(status).send(body(clientErrorCode(status), error.message));
    }
    if (isConnectionLoss(error)) {
      // The database went away under this request (failover, restart, timeout): not a bug, and worth a retry.
      request.log.warn({ err: describeDatabaseError(error) }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send(ourFault('service_unavailable', request));
    }
    request.log.error({ err: error }, 'request failed');
    reportUnexpected(error, request);
    return reply.status(500).send(ourFault('internal_error', request));
  });
}

/**
 * Whether the route's contract has this refusal: a route built from an endpoint (endpointRoute) has an
 * answer schema for each status it may refuse with, taking only that status's codes. A route without
 * answer schemas (health checks) has no contract to keep.
 */
function declares(request: FastifyRequest, status: number, refusal: ApiError): boolean {
  const answers = request.routeOptions.schema?.response as Record<string, unknown> | undefined;
  if (!answers) return true;
  const schema = answers[status];
  return schema instanceof z.ZodType && schema.safeParse(refusal).success;
}

/** What the log needs of a database error: never the pg client object some of them carry. */
function describeDatabaseError(error: Error) {
  const { code } = error as { code?: string };
  return { type: error.name, message: error.message, ...(code ? { code } : {}) };
}

function body(error: ApiErrorCode, message: string): ApiError {
  return { error, message };
}

/** A failure on our side: the same sentence whatever it was, and the request's id to quote to support. */
function ourFault(error: 'internal_error' | 'service_unavailable', request: FastifyRequest): ApiError {
  return { ...body(error, GENERIC_SERVER_ERROR), requestId: request.id };
}

function clientErrorCode(status: number): ApiErrorCode {
  switch (status) {
    case 404:
      return 'not_found';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'too_many_requests';
    default:
      return 'bad_request';
  }
}
