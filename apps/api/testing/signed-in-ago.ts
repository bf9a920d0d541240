import type { ProductTokenClaims } from '../src/session/product-token.js';
import { ProductTokens } from '../src/session/product-token.js';
import { ProductKeyRing } from '../src/session/signing-keys.js';
import type { TestServer } from './test-server.js';

/**
 * The same session's access token, signed with the server's own key, as if its sign-in had been
 * `secondsAgo` ago (its auth_time): a stale session without waiting for one.
 */
export async function signedInAgo(server: TestServer, token: string, secondsAgo: number): Promise<string> {
  const claims = JSON.parse(
    Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'),
  ) as ProductTokenClaims;
  const tokens = new ProductTokens(await ProductKeyRing.open(server.server.db, server.server.secrets), {
    issuer: server.config.publicUrl,
    ttlSeconds: server.config.accessTokenTtlSeconds,
    sessionMaxAgeSeconds: server.config.sessionMaxAgeSeconds,
  });
  return tokens.issue(
    { borrowerId: claims.sub, email: claims.email, externalIds: claims.external_ids },
    {
      sid: claims.sid,
      generation: claims.gen,
      authTime: Math.floor(Date.now() / 1000) - secondsAgo,
      ...(claims.amr ? { amr: claims.amr } : {}),
    },
  ).token;
}
