import { z } from 'zod';

// The product access token (spec section 3): claims as signed by the API.
export const AccessTokenClaimsSchema = z.object({
  email: z.string(),
  exp: z.number(),
  external_ids: z.array(z.string()).default([]),
  iat: z.number(),
  jti: z.string(),
  iss: z.string(),
  scope: z.string(),
  sub: z.string(),
  /** The sign-in this token descends from: refreshes keep it, sign-out revokes it. */
  sid: z.string().optional(),
  /** When that sign-in happened (seconds); refresh stops at auth_time + the session's maximum age. */
  auth_time: z.number().optional(),
  /** Refresh generation within the session family: each refresh spends it and hands out the next. */
  gen: z.number().int().nonnegative().optional(),
  /** How the borrower proved who they are at that sign-in (RFC 8176: pwd, otp, mfa, ...), as the IdP said. */
  amr: z.array(z.string()).optional(),
});
export type AccessTokenClaims = z.infer<typeof AccessTokenClaimsSchema>;

export interface DecodedAccessToken {
  email: string;
  exp: number;
  externalIds: string[];
  iat: number;
  id: string;
  issuer: string;
  scope: string;
  userId: string;
  raw: string;
  /** Not yet expired at the moment of decoding. */
  isValid: boolean;
}

function decodeSegment(segment: string): unknown {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

/**
 * Reads the payload of a product access token without verifying it (the API verifies).
 * A token without three dot-separated segments, or with an unreadable payload, is malformed:
 * logged as a warning and treated as null.
 */
export function decodeAccessToken(
  raw: string | null | undefined,
  now = Date.now(),
): DecodedAccessToken | null {
  if (!raw) return null;
  const segments = raw.split('.');
  if (segments.length !== 3 || !segments[1]) {
    console.warn('Malformed access token: expected three dot-separated segments');
    return null;
  }
  let claims: AccessTokenClaims;
  try {
    claims = AccessTokenClaimsSchema.parse(decodeSegment(segments[1]));
  } catch {
    console.warn('Malformed access token: unreadable payload');
    return null;
  }
  return {
    email: claims.email,
    exp: claims.exp,
    externalIds: claims.external_ids,
    iat: claims.iat,
    id: claims.jti,
    issuer: claims.iss,
    scope: claims.scope,
    userId: claims.sub,
    raw,
    isValid: claims.exp * 1000 > now,
  };
}
