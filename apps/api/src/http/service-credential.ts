import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { bearerTokenOf } from './bearer.js';
import { HttpError } from './http-error.js';

/**
 * The name of the trusted system (or operator) whose credential this request carries as its Bearer
 * token; 401 otherwise. Credentials are compared as sha-256 digests in constant time.
 */
export function trustedServiceOf(request: FastifyRequest, credentials: Map<string, Buffer>): string {
  const presented = bearerTokenOf(request);
  if (presented) {
    const digest = createHash('sha256').update(presented).digest();
    for (const [name, expected] of credentials) if (timingSafeEqual(digest, expected)) return name;
  }
  throw new HttpError(401, 'unauthorized', 'This call needs the Bearer credential of a trusted system.');
}
