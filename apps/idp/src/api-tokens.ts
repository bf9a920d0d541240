import { createHash, timingSafeEqual } from 'node:crypto';

/** An API token is a secret: one short enough to guess is refused at start-up. */
export const MIN_API_TOKEN_LENGTH = 32;

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The SSWS tokens the Users API accepts (Okta's `Authorization: SSWS <token>`). Tokens are compared
 * by their SHA-256 digests in constant time, every configured one each time, so neither the length
 * of a token nor which one matched shows in the timing.
 */
export function createApiTokens(tokens: readonly string[]) {
  for (const token of tokens)
    if (token.length < MIN_API_TOKEN_LENGTH)
      throw new Error(`every API token needs at least ${MIN_API_TOKEN_LENGTH} characters`);
  const digests = tokens.map(digest);

  return {
    /**
     * Who calls, for an accepted Authorization header: a name derived from the token's digest (for
     * its rate limit; the token itself is never stored or logged). Undefined when refused.
     */
    callerOf(authorization: string | undefined): string | undefined {
      const presented = /^SSWS +(\S+) *$/i.exec(authorization ?? '')?.[1] ?? '';
      const candidate = digest(presented);
      let caller: string | undefined;
      for (const known of digests)
        if (timingSafeEqual(known, candidate)) caller = known.toString('hex').slice(0, 16);
      return caller;
    },
  };
}

export type ApiTokens = ReturnType<typeof createApiTokens>;
