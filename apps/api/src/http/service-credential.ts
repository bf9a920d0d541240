import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { bearerTokenOf } from './bearer.js';
import { HttpError } from './http-error.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The trusted system (or operator) whose credential the request carries, on routes that require one. */
    trustedService: string;
  }
}

/**
 * A route's onRequest hook: without a trusted system's credential, 401 before anything else, so
 * such a caller does not even learn whether its body would have passed validation.
 */
export function requireTrustedService(credentials: Map<string, Buffer>): onRequestAsyncHookHandler {
  return async (request) => {
    request.trustedService = trustedServiceOf(request, credentials);
  };
}

/**
 * The name of the trusted system (or operator) whose credential this request carries as its Bearer
 * token; 401 otherwise. Credentials are compared as sha-256 digests in constant time.
 */
function trustedServiceOf(request: FastifyRequest, credentials: Map<string, Buffer>): string {
  const presented = bearerTokenOf(request);
  if (presented) {
    const digest = createHash('sha256').update(presented).digest();
    for (const [name, expected] of credentials) if (timingSafeEqual(digest, expected)) return name;
  }
  throw new HttpError(401, 'unauthorized', 'This call needs the Bearer credential of a trusted system.');
}
