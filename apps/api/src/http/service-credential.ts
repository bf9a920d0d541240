import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { SERVICE_SCOPES, type ServiceCredential, type ServiceScope } from '../config/service-credentials.js';
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
 * such a caller does not even learn whether its body would have passed validation; with a credential
 * of another scope, 403.
 */
export function requireTrustedService(
  credentials: readonly ServiceCredential[],
  scope: ServiceScope,
): onRequestAsyncHookHandler {
  return async (request) => {
    request.trustedService = trustedServiceOf(request, credentials, scope);
  };
}

/**
 * The credentials whose secret was presented: every one is compared, as a sha-256 digest in constant
 * time (the same secret may be configured twice).
 */
export function credentialsMatching(
  presented: string,
  credentials: readonly ServiceCredential[],
): ServiceCredential[] {
  const digest = createHash('sha256').update(presented).digest();
  return credentials.filter((credential) => timingSafeEqual(digest, credential.digest));
}

/**
 * The name of the trusted system (or operator) whose credential of this scope the request carries as
 * its Bearer token; 401 for no known credential, 403 for one of another scope.
 */
function trustedServiceOf(
  request: FastifyRequest,
  credentials: readonly ServiceCredential[],
  scope: ServiceScope,
): string {
  const presented = bearerTokenOf(request);
  if (presented) {
    const matching = credentialsMatching(presented, credentials);
    const allowed = matching.find((credential) => credential.scope === scope);
    if (allowed) return allowed.name;
    if (matching.length > 0) {
      request.log.warn(
        { trustedService: matching[0]!.name, scope: matching.map((c) => c.scope), needs: scope },
        'service credential used out of its scope',
      );
      throw new HttpError(
        403,
        'forbidden',
        `This credential may not make this call: it needs a credential of the ${scope} scope (${SERVICE_SCOPES[scope]}).`,
      );
    }
  }
  throw new HttpError(401, 'unauthorized', 'This call needs the Bearer credential of a trusted system.');
}
