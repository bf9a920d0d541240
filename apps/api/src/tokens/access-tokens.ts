import type { TokenRefusalReason } from '@customer-core/contracts';
import type { ProductTokenClaims, ProductTokens } from './product-token.js';
import type { SessionStore } from './session-store.js';

export type AccessCheck =
  { ok: true; claims: ProductTokenClaims } | { ok: false; reason: TokenRefusalReason };

/** Whether a product access token is good right now: signed by us, current, and its session not revoked. */
export function accessTokenChecker(tokens: ProductTokens, sessions: SessionStore) {
  return async function checkAccessToken(
    raw: string,
    options: { allowExpired?: boolean } = {},
  ): Promise<AccessCheck> {
    const verified = await tokens.verify(raw, options);
    if (!verified.ok) return { ok: false, reason: verified.problem };
    if (await sessions.isRevoked(verified.claims)) return { ok: false, reason: 'revoked' };
    return { ok: true, claims: verified.claims };
  };
}

export type AccessTokenChecker = ReturnType<typeof accessTokenChecker>;
