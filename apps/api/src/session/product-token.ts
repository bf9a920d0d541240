import { randomUUID, sign, verify } from 'node:crypto';
import { AccessTokenClaimsSchema, type AccessTokenClaims } from '@customer-core/contracts';
import type { ProductKeyRing } from './signing-keys.js';

// Product access tokens: compact JWS, ES256 only. Signed and verified with node:crypto on cached
// KeyObjects because this is the hot path of validate and refresh (see performance targets).

export const PRODUCT_TOKEN_AUDIENCE = 'customer-core';
export const PRODUCT_TOKEN_SCOPE = 'borrower';
/** The staff console's tokens: signed by the same keys, for another audience, so neither opens the other's API. */
export const CONSOLE_TOKEN_AUDIENCE = 'customer-core-console';
export const CONSOLE_TOKEN_SCOPE = 'staff';

export type TokenProblem =
  'malformed' | 'unsupported_algorithm' | 'bad_signature' | 'wrong_issuer' | 'wrong_audience' | 'expired';

/** Claims of a token this API issued: always with its session id, sign-in time and refresh generation. */
export type ProductTokenClaims = AccessTokenClaims & { sid: string; auth_time: number; gen: number };

export type VerifiedToken = { ok: true; claims: ProductTokenClaims } | { ok: false; problem: TokenProblem };

export interface TokenSubject {
  borrowerId: string;
  email: string;
  externalIds: string[];
}

/** The sign-in a token belongs to; refreshes carry it forward with the next generation. */
export interface TokenSession {
  sid: string;
  /** Seconds since the epoch. */
  authTime: number;
  /** 0 at sign-in; each refresh issues the next (see Revocations.rotate). */
  generation: number;
  /** How the borrower signed in, as the identity provider said (absent: it did not say). */
  amr?: string[];
}

/** What the identity provider said of a sign-in: the ID token's amr and auth_time. */
export interface SignInAuthentication {
  amr: string[] | null;
  /** Seconds since the epoch. */
  authTime: number | null;
}

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * How many verified tokens each instance remembers. A borrower's token is presented on every call
 * for its whole life, and an ES256 verify costs more than all else validate does; remembering the
 * exact strings that passed turns repeat checks into a lookup. ~1.5 KB each.
 */
const VERIFIED_TOKENS_REMEMBERED = 10_000;

export class ProductTokens {
  /**
   * Token string -> its claims and key, for tokens that passed every check but expiry, or that this
   * instance signed. Oldest first.
   */
  readonly #verified = new Map<string, { kid: string; claims: ProductTokenClaims }>();

  constructor(
    private readonly keys: ProductKeyRing,
    private readonly options: {
      issuer: string;
      ttlSeconds: number;
      sessionMaxAgeSeconds: number;
      /** Borrowers' tokens (PRODUCT_TOKEN_AUDIENCE and _SCOPE) unless said. */
      audience?: string;
      scope?: string;
    },
  ) {}

  get #audience() {
    return this.options.audience ?? PRODUCT_TOKEN_AUDIENCE;
  }

  /**
   * A new sign-in session: the start of a token family. Its auth_time is the identity provider's when
   * it says one (never later than now: clocks differ), else now.
   */
  newSession(now = Date.now(), authentication?: SignInAuthentication): TokenSession {
    const nowSeconds = Math.floor(now / 1000);
    const authTime = Math.min(authentication?.authTime ?? nowSeconds, nowSeconds);
    return {
      sid: randomUUID(),
      authTime,
      generation: 0,
      ...(authentication?.amr ? { amr: authentication.amr } : {}),
    };
  }

  /** When the session can no longer be refreshed (seconds since the epoch). */
  sessionEnd(session: TokenSession | { auth_time: number }): number {
    const authTime = 'authTime' in session ? session.authTime : session.auth_time;
    return authTime + this.options.sessionMaxAgeSeconds;
  }

  issue(
    subject: TokenSubject,
    session: TokenSession,
    now = Date.now(),
  ): { token: string; claims: ProductTokenClaims } {
    const key = this.keys.active;
    const iat = Math.floor(now / 1000);
    const claims: ProductTokenClaims = {
      email: subject.email,
      // Never outlives its session.
      exp: Math.min(iat + this.options.ttlSeconds, this.sessionEnd(session)),
      external_ids: subject.externalIds,
      iat,
      jti: randomUUID(),
      iss: this.options.issuer,
      scope: this.options.scope ?? PRODUCT_TOKEN_SCOPE,
      sub: subject.borrowerId,
      sid: session.sid,
      auth_time: session.authTime,
      gen: session.generation,
      ...(session.amr ? { amr: session.amr } : {}),
    };
    const signingInput = `${encode({ alg: 'ES256', typ: 'JWT', kid: key.kid })}.${encode({ ...claims, aud: this.#audience })}`;
    const signature = sign('sha256', Buffer.from(signingInput), {
      key: key.privateKey,
      dsaEncoding: 'ieee-p1363',
    });
    const token = `${signingInput}.${signature.toString('base64url')}`;
    // A token is presented next to the instance that issued it, most often (a refresh chain always
    // comes back): what verify would find is known already, so its first check skips the ES256 verify.
    this.#remember(token, key.kid, { ...claims });
    return { token, claims };
  }

  /** Checks signature, algorithm, issuer, audience and (unless allowed) expiry. Revocation is the caller's. */
  async verify(raw: string, options: { allowExpired?: boolean; now?: number } = {}): Promise<VerifiedToken> {
    const now = options.now ?? Date.now();
    const expired = (claims: ProductTokenClaims) => !options.allowExpired && claims.exp * 1000 <= now;
    const remembered = this.#verified.get(raw);
    // Only the exact string that verified is remembered, and only while the key that signed it is kept.
    if (remembered && this.keys.find(remembered.kid)) {
      return expired(remembered.claims)
        ? { ok: false, problem: 'expired' }
        : { ok: true, claims: remembered.claims };
    }

    const parts = raw.split('.');
    if (parts.length !== 3) return { ok: false, problem: 'malformed' };
    const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
    const header = parseJson(headerPart);
    const payload = parseJson(payloadPart);
    if (!header || !payload) return { ok: false, problem: 'malformed' };
    // Allow-list, not deny-list: 'none', HS256 and RS256 are all refused here.
    if (header.alg !== 'ES256') return { ok: false, problem: 'unsupported_algorithm' };
    // This API never sets critical extensions, so it understands none (RFC 7515, section 4.1.11).
    if (header.crit !== undefined) return { ok: false, problem: 'malformed' };
    // Key ids are this API's own (short, printable): anything else is not worth a key reload.
    const key = isKeyId(header.kid) ? await this.keys.findOrReload(header.kid) : undefined;
    if (!key) return { ok: false, problem: 'bad_signature' };
    const signature = Buffer.from(signaturePart, 'base64url');
    const valid =
      signature.length === 64 &&
      verify(
        'sha256',
        Buffer.from(`${headerPart}.${payloadPart}`),
        { key: key.publicKey, dsaEncoding: 'ieee-p1363' },
        signature,
      );
    if (!valid) return { ok: false, problem: 'bad_signature' };

    const claims = AccessTokenClaimsSchema.safeParse(payload);
    if (!claims.success || claims.data.sid === undefined || claims.data.auth_time === undefined) {
      return { ok: false, problem: 'malformed' };
    }
    if (claims.data.iss !== this.options.issuer) return { ok: false, problem: 'wrong_issuer' };
    // Checked after the signature: 'wrong_audience' is a token of ours, for the other API.
    if (payload.aud !== this.#audience) return { ok: false, problem: 'wrong_audience' };
    // Tokens from before refresh generations were signed are generation 0 of their session.
    const verified = {
      ...claims.data,
      sid: claims.data.sid,
      auth_time: claims.data.auth_time,
      gen: claims.data.gen ?? 0,
    };
    this.#remember(raw, key.kid, verified);
    return expired(verified) ? { ok: false, problem: 'expired' } : { ok: true, claims: verified };
  }

  /**
   * A token that is never good again (spent by a refresh, signed out) is not kept: were it presented
   * again, it is verified as any other and refused by its session.
   */
  forget(raw: string): void {
    this.#verified.delete(raw);
  }

  #remember(raw: string, kid: string, claims: ProductTokenClaims): void {
    this.#verified.delete(raw);
    if (this.#verified.size >= VERIFIED_TOKENS_REMEMBERED) {
      this.#verified.delete(this.#verified.keys().next().value!);
    }
    this.#verified.set(raw, { kid, claims });
  }
}

const isKeyId = (kid: unknown): kid is string => typeof kid === 'string' && /^[\w.-]{1,128}$/.test(kid);

function parseJson(segment: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
