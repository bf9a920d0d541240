import { createHash, type JsonWebKey } from 'node:crypto';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeJwt,
  errors,
  jwtVerify,
  type JWTVerifyGetKey,
} from 'jose';
import type { BorrowerIdentity } from '../borrowers/borrower-repository.js';

// Verifies ID tokens of the identity providers this portal trusts (bundled or a hosted Okta org).

export interface TrustedIdentityProvider {
  issuer: string;
  clientId: string;
  /** In-process keys of the bundled provider; otherwise fetched from the issuer's /v1/keys. */
  localKeys?: () => { keys: JsonWebKey[] };
}

/** The bundled identity provider's keys, read in-process (it runs in this server). */
export interface BundledProviderKeys {
  issuer: string;
  publicKeys(): { keys: JsonWebKey[] };
}

/**
 * The identity providers whose ID tokens sign borrowers in: the production and the non-production one
 * (spec section 1, the same one where both are the bundled provider). The bundled provider's keys are
 * read in-process; any other issuer's are fetched from it.
 */
export function trustedIdentityProviders(
  providers: Record<'production' | 'nonProduction', Pick<TrustedIdentityProvider, 'issuer' | 'clientId'>>,
  bundled: BundledProviderKeys | null,
): TrustedIdentityProvider[] {
  return [providers.production, providers.nonProduction].map(({ issuer, clientId }) => ({
    issuer,
    clientId,
    localKeys: bundled && issuer === bundled.issuer ? () => bundled.publicKeys() : undefined,
  }));
}

/** What the exchange needs to accept an ID token once and only while its sign-in lasts. */
export interface IdTokenUse {
  /** sha-256 (hex) of the issuer and jti, or of the signed part of the token when it has no jti. */
  hash: string;
  /** iat, seconds since the epoch. */
  issuedAt: number;
  /** Until when this verifier accepts the token (exp plus the clock tolerance), seconds since the epoch. */
  acceptedUntil: number;
  /** The identity provider's session (sid claim), when the token names one. */
  sessionId: string | null;
  /** How and when the borrower signed in at the identity provider (amr, auth_time), when it says. */
  amr: string[] | null;
  authTime: number | null;
  /** The groups claim (a staff member's console roles), when the token has one. */
  groups: string[] | null;
}

/** Seconds a token's exp and iat may be off from this server's clock. */
export const ID_TOKEN_CLOCK_TOLERANCE_SECONDS = 30;

/** Why a valid ID token no longer signs anyone in. */
export type IdTokenSpent = 'used' | 'revoked' | 'idp_session_ended';

export type IdTokenProblem =
  'malformed' | 'unknown_issuer' | 'wrong_audience' | 'expired' | 'bad_signature' | 'invalid';

export type IdTokenResult =
  { ok: true; identity: BorrowerIdentity; use: IdTokenUse } | { ok: false; problem: IdTokenProblem };

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export class IdTokenVerifier {
  readonly #providers = new Map<string, { clientId: string; keys: JWTVerifyGetKey }>();

  constructor(providers: TrustedIdentityProvider[]) {
    for (const p of providers) {
      if (this.#providers.has(p.issuer)) continue;
      const keys = p.localKeys
        ? (createLocalJWKSet(p.localKeys()) as JWTVerifyGetKey)
        : (createRemoteJWKSet(new URL(`${p.issuer}/v1/keys`)) as JWTVerifyGetKey);
      this.#providers.set(p.issuer, { clientId: p.clientId, keys });
    }
  }

  async verify(token: string): Promise<IdTokenResult> {
    let issuer: unknown;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      return { ok: false, problem: 'malformed' };
    }
    const provider = typeof issuer === 'string' ? this.#providers.get(issuer) : undefined;
    if (!provider || typeof issuer !== 'string') return { ok: false, problem: 'unknown_issuer' };
    try {
      const { payload } = await jwtVerify(token, provider.keys, {
        issuer,
        audience: provider.clientId,
        algorithms: ['RS256'],
        clockTolerance: ID_TOKEN_CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['sub', 'iat', 'exp'],
      });
      if (typeof payload.email !== 'string' || !payload.sub) return { ok: false, problem: 'invalid' };
      return {
        ok: true,
        identity: {
          issuer,
          subject: payload.sub,
          email: payload.email.toLowerCase(),
          firstName: typeof payload.given_name === 'string' ? payload.given_name : null,
          lastName: typeof payload.family_name === 'string' ? payload.family_name : null,
        },
        use: {
          // jti is unique per issuer only. A token without one is known by what is signed (header and
          // claims): the signature's text can be spelt several ways (base64url's unused trailing bits).
          hash: sha256(
            typeof payload.jti === 'string' ? `${issuer}\n${payload.jti}` : token.split('.', 2).join('.'),
          ),
          issuedAt: payload.iat!,
          acceptedUntil: payload.exp! + ID_TOKEN_CLOCK_TOLERANCE_SECONDS,
          sessionId: typeof payload.sid === 'string' && payload.sid ? payload.sid : null,
          amr:
            Array.isArray(payload.amr) && payload.amr.every((value) => typeof value === 'string')
              ? payload.amr
              : null,
          authTime: typeof payload.auth_time === 'number' ? payload.auth_time : null,
          groups:
            Array.isArray(payload.groups) && payload.groups.every((value) => typeof value === 'string')
              ? payload.groups
              : null,
        },
      };
    } catch (error) {
      return { ok: false, problem: problemOf(error) };
    }
  }
}

function problemOf(error: unknown): IdTokenProblem {
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWTClaimValidationFailed)
    return error.claim === 'aud' ? 'wrong_audience' : 'invalid';
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) {
    return 'bad_signature';
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JWKSMultipleMatchingKeys)
    return 'bad_signature';
  // The issuer's key set could not be fetched or read: a fault on that side, not bad input.
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) throw error;
  // Anything else jose refuses is the token's fault: bad segments, unreadable JSON, a `crit` header
  // naming extensions nobody understands (JOSENotSupported), an unusable key reference.
  if (error instanceof errors.JOSEError) return 'malformed';
  throw error;
}
