import type { FastifyRequest } from 'fastify';
import { bearerTokenOf } from '../http/bearer.js';
import { HttpError } from '../http/http-error.js';
import type { AccessTokenChecker } from './access-tokens.js';
import type { ProductTokenClaims } from './product-token.js';
import { accessTokenRefused } from './token-problems.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in borrower's token claims, set by requireBorrower. */
    borrowerClaims?: ProductTokenClaims;
  }
}

/** preHandler for borrower calls: a current, unrevoked product access token in the Authorization header. */
export function requireBorrower(checkAccessToken: AccessTokenChecker) {
  return async (request: FastifyRequest) => {
    const token = bearerTokenOf(request);
    if (!token)
      throw new HttpError(401, 'unauthorized', 'This call needs a Bearer access token. Sign in first.');
    const checked = await checkAccessToken(token);
    // A staff member's console token: ours, genuine, and never a way into a borrower's data.
    if (!checked.ok && checked.reason === 'wrong_audience')
      throw new HttpError(403, 'forbidden', 'A staff console token does not open the borrower’s API.');
    if (!checked.ok) throw accessTokenRefused(checked.reason);
    request.borrowerClaims = checked.claims;
  };
}

/** The claims requireBorrower put on the request (it always runs first). */
export function borrowerClaimsOf(request: FastifyRequest): ProductTokenClaims {
  if (!request.borrowerClaims) throw new Error('requireBorrower did not run for this route');
  return request.borrowerClaims;
}
