import type { TokenRefusalReason } from '@customer-core/contracts';
import type { ProductTokenClaims, ProductTokens } from './product-token.js';
import type { Revocations } from './revocations.js';

export type AccessCheck =
  | { ok: true; claims: ProductTokenClaims }
  /** `claims` when the token is ours and only its session refuses it (revoked, superseded). */
  | { ok: false; reason: TokenRefusalReason; claims?: ProductTokenClaims };

/**
 * Whether a product access token is good right now: signed by us, current, its session not revoked,
 * and not superseded by a refresh (only a session's newest token is good). No query once the instance
 * knows the borrower (see revocations.ts).
 */
export function accessTokenChecker(tokens: ProductTokens, revocations: Revocations) {
  return async function checkAccessToken(
    raw: string,
    options: { allowExpired?: boolean } = {},
  ): Promise<AccessCheck> {
    const verified = await tokens.verify(raw, options);
    if (!verified.ok) return { ok: false, reason: verified.problem };
    const refusal = await revocations.refusal(verified.claims);
    if (refusal) return { ok: false, reason: refusal, claims: verified.claims };
    return { ok: true, claims: verified.claims };
  };
}

export type AccessTokenChecker = ReturnType<typeof accessTokenChecker>;
