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
 * The name of the trusted system whose credential of this scope `presented` is; undefined for a secret
 * no credential has; 403 for a credential of another scope. Every credential is compared, as a sha-256
 * digest in constant time (the same secret may be configured twice).
 */
export function serviceWithScope(
  request: FastifyRequest,
  presented: string,
  credentials: readonly ServiceCredential[],
  scope: ServiceScope,
): string | undefined {
  const digest = createHash('sha256').update(presented).digest();
  const matching = credentials.filter((credential) => timingSafeEqual(digest, credential.digest));
  const allowed = matching.find((credential) => credential.scope === scope);
  if (allowed) return allowed.name;
  if (matching.length === 0) return undefined;
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
  const name = presented && serviceWithScope(request, presented, credentials, scope);
  if (name) return name;
  throw new HttpError(401, 'unauthorized', 'This call needs the Bearer credential of a trusted system.');
}
