import type { ProductTokenClaims } from '../src/session/product-token.js';
import { ProductTokens } from '../src/session/product-token.js';
import { signingKeyRepository } from '../src/session/signing-key-repository.js';
import { ProductKeyRing } from '../src/session/signing-keys.js';
import type { TestServer } from './test-server.js';

/**
 * The same session's access token (a borrower's or a staff member's console token), signed with the
 * server's own key, as if its sign-in had been `secondsAgo` ago (its auth_time): a stale session
 * without waiting for one.
 */
export function signedInAgo(server: TestServer, token: string, secondsAgo: number): Promise<string> {
  return reissued(server, token, { secondsAgo });
}

/**
 * The same session's access token, signed with the server's own key, as if it had begun with a
 * password sign-in just now (amr pwd): a session minted for a test (a lookup token) that a change
 * needing a recent password sign-in accepts, as it would after the sign-in form.
 */
export function asPasswordSignIn(server: TestServer, token: string): Promise<string> {
  return reissued(server, token, { secondsAgo: 0, amr: ['pwd'] });
}

async function reissued(
  server: TestServer,
  token: string,
  { secondsAgo, amr }: { secondsAgo: number; amr?: string[] },
): Promise<string> {
  const claims = JSON.parse(
    Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'),
  ) as ProductTokenClaims & { aud: string };
  const tokens = new ProductTokens(
    await ProductKeyRing.open(signingKeyRepository(server.server.db, server.server.secrets)),
    {
      issuer: server.config.publicUrl,
      ttlSeconds: server.config.accessTokenTtlSeconds,
      sessionMaxAgeSeconds: server.config.sessionMaxAgeSeconds,
      // A console token stays one (its audience and scope).
      audience: claims.aud,
      scope: claims.scope,
    },
  );
  const kept = amr ?? claims.amr;
  return tokens.issue(
    { borrowerId: claims.sub, email: claims.email, externalIds: claims.external_ids },
    {
      sid: claims.sid,
      generation: claims.gen,
      authTime: Math.floor(Date.now() / 1000) - secondsAgo,
      ...(kept ? { amr: kept } : {}),
    },
  ).token;
}
