import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authEndpoints, decodeAccessToken } from '@customer-core/contracts';
import { DEMO_BORROWER } from '../src/loans/demo-borrower.js';
import { signInThroughIdp, startTestServer, type TestServer } from '../testing/index.js';
import { startHostedIdp } from './support/hosted-idp.js';

const demo = { username: DEMO_BORROWER.login, password: DEMO_BORROWER.password };
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('POST /api/auth/token-exchange', () => {
  let server: TestServer;
  let hosted: Awaited<ReturnType<typeof startHostedIdp>>;
  const exchange = (
    body: unknown,
    headers: Record<string, string> = { 'content-type': 'application/json' },
  ) =>
    fetch(`${server.baseUrl}${authEndpoints.tokenExchange.path}`, {
      method: 'POST',
      headers,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const expectRefusal = async (response: Response, status: number, message: RegExp) => {
    const body = (await response.json()) as { error: string; message: string };
    assert.equal(response.status, status, JSON.stringify(body));
    assert.match(body.message, message);
  };

  before(async () => {
    hosted = await startHostedIdp();
    server = await startTestServer('pglite', hosted.env);
  });
  after(async () => {
    await server?.close();
    await hosted?.close();
  });

  it('turns a bundled-IdP ID token into a product access token for the borrower', async () => {
    const { idToken } = await signInThroughIdp(server.baseUrl, demo);
    const response = await exchange({ token: idToken });
    assert.equal(response.status, 200);
    const { access_token } = (await response.json()) as { access_token: string };
    const decoded = decodeAccessToken(access_token);
    assert.ok(decoded?.isValid);
    assert.equal(decoded.email, 'demo@example.com');
    assert.equal(decoded.issuer, server.baseUrl);
    assert.deepEqual(decoded.externalIds, []);

    // The same identity is the same borrower on the next sign-in.
    const again = await exchange({ token: (await signInThroughIdp(server.baseUrl, demo)).idToken });
    const second = decodeAccessToken(((await again.json()) as { access_token: string }).access_token);
    assert.equal(second?.userId, decoded.userId);
    assert.notEqual(second?.id, decoded.id);
  });

  it('accepts a hosted provider configured by issuer and client id (keys fetched from the issuer)', async () => {
    const response = await exchange({ token: await hosted.idToken() });
    assert.equal(response.status, 200);
    const decoded = decodeAccessToken(((await response.json()) as { access_token: string }).access_token);
    assert.equal(decoded?.email, 'hosted.borrower@example.com');
  });

  it('refuses an expired ID token', async () => {
    const expired = await hosted.idToken(
      { iat: Math.floor(Date.now() / 1000) - 3600 },
      { expiresIn: Math.floor(Date.now() / 1000) - 600 },
    );
    await expectRefusal(await exchange({ token: expired }), 401, /has expired/);
  });

  it('refuses an ID token issued for another client', async () => {
    await expectRefusal(
      await exchange({ token: await hosted.idToken({ aud: 'someone-elses-app' }) }),
      401,
      /not issued for this portal/,
    );
  });

  it('refuses an ID token from an issuer it does not trust', async () => {
    const token = await hosted.idToken({ iss: 'https://evil.example/oauth2/default' });
    await expectRefusal(await exchange({ token }), 401, /does not trust/);
  });

  it('refuses a tampered ID token', async () => {
    const { idToken } = await signInThroughIdp(server.baseUrl, demo);
    const [header, payload, signature] = idToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${header}.${b64({ ...claims, email: 'attacker@example.com' })}.${signature}`;
    await expectRefusal(await exchange({ token: forged }), 401, /signature is invalid/);
  });

  it("refuses an unsigned (alg 'none') ID token and one signed by an unknown key", async () => {
    const { idToken } = await signInThroughIdp(server.baseUrl, demo);
    const payload = idToken.split('.')[1];
    await expectRefusal(
      await exchange({ token: `${b64({ alg: 'none' })}.${payload}.` }),
      401,
      /signature is invalid/,
    );
    await expectRefusal(
      await exchange({ token: await hosted.idToken({}, { kid: 'unknown-key' }) }),
      401,
      /signature is invalid/,
    );
  });

  it('answers malformed tokens and bad bodies with 4xx and a clear message, never 5xx', async () => {
    await expectRefusal(await exchange({ token: 'not-a-jwt' }), 400, /not a well-formed JWT/);
    await expectRefusal(await exchange({ token: 'a.b.c' }), 400, /not a well-formed JWT/);
    await expectRefusal(await exchange({}), 400, /token/);
    await expectRefusal(await exchange({ token: 42 }), 400, /token/);
    await expectRefusal(await exchange({ token: '' }), 400, /token is required/);
    await expectRefusal(await exchange({ token: 'x'.repeat(9000) }), 400, /too long/);
    await expectRefusal(await exchange('{"token":'), 400, /JSON/);
    await expectRefusal(
      await exchange('token=abc', { 'content-type': 'text/plain' }),
      415,
      /Unsupported Media Type/i,
    );
    await expectRefusal(await exchange(JSON.stringify({ token: 'x'.repeat(70_000) })), 413, /too large/i);
  });

  it('refuses tokens with a crit header, a bad key reference or control characters with 4xx', async () => {
    const { idToken } = await signInThroughIdp(server.baseUrl, demo);
    const [, payload, signature] = idToken.split('.') as [string, string, string];
    for (const header of [
      { alg: 'RS256', crit: ['exp'] },
      { alg: 'RS256', crit: ['b64'], b64: false },
      { alg: 'RS256', crit: 'exp' },
      { alg: 'RS256', kid: 42 },
      { alg: 'RS256', jwk: { kty: 'nope' } },
    ]) {
      const response = await exchange({ token: `${b64(header)}.${payload}.${signature}` });
      assert.ok([400, 401].includes(response.status), `${JSON.stringify(header)}: ${response.status}`);
    }
    await expectRefusal(await exchange({ token: `${idToken}\u0000` }), 400, /token/);
  });
});

describe('POST /api/auth/logout', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('pglite');
  });
  after(() => server?.close());

  const signIn = async () => {
    const { idToken } = await signInThroughIdp(server.baseUrl, demo);
    const response = await fetch(`${server.baseUrl}${authEndpoints.tokenExchange.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: idToken }),
    });
    return ((await response.json()) as { access_token: string }).access_token;
  };
  const logout = (accessToken: string) =>
    fetch(`${server.baseUrl}${authEndpoints.logout.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ access_token: accessToken }),
    });

  it('revokes the session of the access token', async () => {
    const accessToken = await signIn();
    const response = await logout(accessToken);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { revoked: true });
    const validated = await fetch(`${server.baseUrl}${authEndpoints.validate.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ access_token: accessToken }),
    });
    assert.equal(((await validated.json()) as { reason: string }).reason, 'revoked');
    // Signing out twice is harmless.
    assert.equal((await logout(accessToken)).status, 200);
  });

  it('refuses a token it did not issue', async () => {
    const accessToken = await signIn();
    const [h, p] = accessToken.split('.');
    const response = await logout(`${h}.${p}.${Buffer.alloc(64).toString('base64url')}`);
    assert.equal(response.status, 401);
    assert.equal(((await response.json()) as { error: string }).error, 'invalid_token');
  });
});
