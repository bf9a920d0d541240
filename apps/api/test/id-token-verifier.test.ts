import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { IdTokenVerifier, trustedIdentityProviders } from '../src/session/id-token-verifier.js';

const BUNDLED = { issuer: 'http://localhost:8080/oauth2/default', clientId: 'customer-portal' };
const HOSTED = { issuer: 'https://lender.okta.example/oauth2/default', clientId: 'portal-client' };

async function bundledProvider() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bundled-1', alg: 'RS256', use: 'sig' };
  return {
    keys: { issuer: BUNDLED.issuer, publicKeys: () => ({ keys: [jwk] }) },
    idToken: (claims: Record<string, unknown>) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'bundled-1' })
        .setIssuer(BUNDLED.issuer)
        .setAudience(BUNDLED.clientId)
        .setSubject('00u-bundled')
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey),
  };
}

describe('trusted identity providers', () => {
  it("reads the bundled provider's keys in-process and fetches a hosted org's", async () => {
    const bundled = await bundledProvider();
    const trusted = trustedIdentityProviders({ production: HOSTED, nonProduction: BUNDLED }, bundled.keys);
    assert.deepEqual(
      trusted.map(({ issuer, clientId }) => ({ issuer, clientId })),
      [HOSTED, BUNDLED],
    );
    assert.equal(trusted[0]!.localKeys, undefined, "a hosted org's keys come from its /v1/keys");
    assert.deepEqual(trusted[1]!.localKeys?.(), bundled.keys.publicKeys());

    const verified = await new IdTokenVerifier(trusted).verify(
      await bundled.idToken({ email: 'Dana@Example.com' }),
    );
    assert.ok(verified.ok);
    assert.equal(verified.identity.issuer, BUNDLED.issuer);
    assert.equal(verified.identity.email, 'dana@example.com');
  });

  it("reads the bundled provider's keys for both where it is both, and none in-process without it", async () => {
    const bundled = await bundledProvider();
    const both = trustedIdentityProviders({ production: BUNDLED, nonProduction: BUNDLED }, bundled.keys);
    assert.ok(both.every((provider) => provider.localKeys !== undefined));
    assert.ok((await new IdTokenVerifier(both).verify(await bundled.idToken({ email: 'a@example.com' }))).ok);

    const hosted = trustedIdentityProviders({ production: HOSTED, nonProduction: HOSTED }, null);
    assert.ok(hosted.every((provider) => provider.localKeys === undefined));
  });
});
