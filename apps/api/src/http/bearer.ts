import type { FastifyRequest } from 'fastify';
import { HttpError } from './http-error.js';
import { accessTokenRefused } from './token-problems.js';
import type { AccessTokenChecker } from '../session/access-tokens.js';
import type { ProductTokenClaims } from '../session/product-token.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in borrower's token claims, set by requireBorrower. */
    borrowerClaims?: ProductTokenClaims;
  }
}

export function bearerTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

/** preHandler for borrower calls: a current, unrevoked product access token in the Authorization header. */
export function requireBorrower(checkAccessToken: AccessTokenChecker) {
  return async (request: FastifyRequest) => {
    const token = bearerTokenOf(request);
    if (!token)
      throw new HttpError(401, 'unauthorized', 'This call needs a Bearer access token. Sign in first.');
    const checked = await checkAccessToken(token);
    if (!checked.ok) throw accessTokenRefused(checked.reason);
    request.borrowerClaims = checked.claims;
  };
}

/** The claims requireBorrower put on the request (it always runs first). */
export function borrowerClaimsOf(request: FastifyRequest): ProductTokenClaims {
  if (!request.borrowerClaims) throw new Error('requireBorrower did not run for this route');
  return request.borrowerClaims;
}
