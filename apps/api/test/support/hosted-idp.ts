import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { freePort } from '../../testing/free-port.js';

/**
 * A second identity provider standing in for a hosted Okta org: it publishes its keys at
 * {issuer}/v1/keys over real HTTP and mints ID tokens with whatever claims a test needs.
 */
export async function startHostedIdp() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'hosted-1', alg: 'RS256', use: 'sig' };
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}/oauth2/hosted`;
  const clientId = 'hosted-portal-client';
  const server: Server = createServer((req, res) => {
    if (req.url === '/oauth2/hosted/v1/keys') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

  return {
    issuer,
    clientId,
    env: { IDP_NONPROD_ISSUER: issuer, IDP_NONPROD_CLIENT_ID: clientId },
    /** An ID token as the hosted provider would issue it; `claims` and `expiresIn` override. */
    async idToken(claims: JWTPayload = {}, options: { expiresIn?: string | number; kid?: string } = {}) {
      return new SignJWT({
        email: 'hosted.borrower@example.com',
        given_name: 'Harper',
        family_name: 'Hosted',
        ...claims,
      })
        .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'hosted-1' })
        .setIssuer(typeof claims.iss === 'string' ? claims.iss : issuer)
        .setAudience(claims.aud ?? clientId)
        .setSubject(claims.sub ?? '00u-hosted-1')
        .setIssuedAt(typeof claims.iat === 'number' ? claims.iat : undefined)
        .setExpirationTime(options.expiresIn ?? '5m')
        .sign(privateKey);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
