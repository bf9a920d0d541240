import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { after, before, describe, it, mock } from 'node:test';
import { createLocalJWKSet, jwtVerify } from 'jose';
import * as contracts from '@customer-core/contracts';
import { authEndpoints, decodeAccessToken, type Endpoint } from '@customer-core/contracts';
import { ProductTokens } from '../src/session/product-token.js';
import { signingKeyRepository } from '../src/session/signing-key-repository.js';
import { ProductKeyRing } from '../src/session/signing-keys.js';
import { startTestServer, type TestServer } from '../testing/index.js';
import { claimsOf, demoAccessToken, json, post } from './support/session.js';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('session calls', () => {
  let server: TestServer;
  let url: string;
  /** Issues tokens with this server's keys and settings, e.g. for a sign-in long ago. */
  let tokensOfServer: ProductTokens;

  before(async () => {
    server = await startTestServer('pglite', { SESSION_MAX_AGE_SECONDS: '3600' });
    url = server.baseUrl;
    tokensOfServer = new ProductTokens(
      await ProductKeyRing.open(signingKeyRepository(server.server.db, server.server.secrets)),
      {
        issuer: url,
        ttlSeconds: 900,
        sessionMaxAgeSeconds: 3600,
      },
    );
  });
  after(() => server?.close());

  const validate = async (token: unknown) =>
    json(await post(url, authEndpoints.validate.path, { access_token: token }));
  const refresh = async (token: unknown) => json(await post(url, authEndpoints.tokenRefresh.path, { token }));
  const profile = async (token?: string) =>
    json(
      await fetch(`${url}${authEndpoints.profile.path}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      }),
    );

  it('validate: a current token is valid, with its session end', async () => {
    const token = await demoAccessToken(url);
    const { status, body } = await validate(token);
    assert.equal(status, 200);
    const claims = decodeAccessToken(token)!;
    // The session ends its maximum age after the sign-in (auth_time), which may be a second before
    // the token was issued.
    const { auth_time } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
      auth_time: number;
    };
    assert.deepEqual(body, {
      valid: true,
      sub: claims.userId,
      email: 'demo@example.com',
      scope: 'borrower',
      exp: claims.exp,
      sessionExpiresAt: auth_time + 3600,
    });
  });

  it('validate: says why a token is refused, 4xx and never 5xx', async () => {
    const token = await demoAccessToken(url);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const foreignInput = `${header}.${payload}`;
    const foreign = `${foreignInput}.${sign('sha256', Buffer.from(foreignInput), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
    const expired = tokensOfServer.issue(
      { borrowerId: claims.sub as string, email: 'demo@example.com', externalIds: [] },
      tokensOfServer.newSession(Date.now() - 1000_000),
      Date.now() - 1000_000,
    ).token;

    const cases: Array<[string, unknown, number, string]> = [
      ['expired', expired, 401, 'expired'],
      [
        'tampered',
        `${header}.${b64({ ...claims, email: 'x@example.com' })}.${signature}`,
        401,
        'bad_signature',
      ],
      ["alg 'none'", `${b64({ alg: 'none' })}.${payload}.`, 401, 'unsupported_algorithm'],
      ['signed by another key', foreign, 401, 'bad_signature'],
      ['malformed', 'not.a.jwt', 400, 'malformed'],
    ];
    for (const [name, candidate, status, reason] of cases) {
      const result = await validate(candidate);
      assert.equal(result.status, status, name);
      assert.equal(result.body.reason, reason, name);
      assert.equal(typeof result.body.message, 'string', name);
    }
    for (const body of [{}, { access_token: 42 }, { access_token: '' }, { token: token }]) {
      const response = await post(url, authEndpoints.validate.path, body);
      assert.equal(response.status, 400, JSON.stringify(body));
    }
  });

  it('refresh: a fresh token in the same session; refused once that session is signed out', async () => {
    const first = await demoAccessToken(url);
    const refreshed = await refresh(first);
    assert.equal(refreshed.status, 200);
    const second = refreshed.body.access_token as string;
    const [a, b] = [decodeAccessToken(first)!, decodeAccessToken(second)!];
    assert.notEqual(b.id, a.id);
    assert.equal(b.userId, a.userId);
    assert.equal((await validate(second)).status, 200);

    // Signing out with the first token ends the family: the refreshed one goes too.
    assert.equal((await post(url, authEndpoints.logout.path, { access_token: first })).status, 200);
    for (const token of [first, second]) {
      assert.deepEqual((await validate(token)).body.reason, 'revoked');
      assert.deepEqual((await refresh(token)).body.reason, 'revoked');
    }
    assert.equal((await profile(second)).status, 401);
  });

  it('refresh and sign-out forget the token they spend: the instance keeps none of them in memory', async () => {
    // The server runs in this process: what its tokens are told to forget is seen here.
    const forgotten = mock.method(ProductTokens.prototype, 'forget');
    try {
      const first = await demoAccessToken(url);
      const second = (await refresh(first)).body.access_token as string;
      const spent = () => forgotten.mock.calls.map((call) => call.arguments[0]);
      assert.deepEqual(spent(), [first]);
      assert.equal((await post(url, authEndpoints.logout.path, { access_token: second })).status, 200);
      assert.deepEqual(spent(), [first, second]);
    } finally {
      forgotten.mock.restore();
    }
  });

  it('refresh rotates: a refreshed token is spent, no longer good as a bearer either', async () => {
    const first = await demoAccessToken(url);
    const refreshed = await refresh(first);
    assert.equal(refreshed.status, 200);
    const second = refreshed.body.access_token as string;
    assert.equal(claimsOf(second).sid, claimsOf(first).sid, 'the same session family');
    // The old token was superseded by the new one: validate and the borrower API refuse it.
    assert.equal((await validate(first)).body.reason, 'superseded');
    assert.equal((await profile(first)).status, 401);
    assert.equal((await validate(second)).status, 200);
    assert.equal((await profile(second)).status, 200);
    // The new one is refreshed in turn: rotation goes on along the family.
    const third = (await refresh(second)).body.access_token as string;
    assert.equal((await validate(third)).status, 200);
    assert.equal((await validate(second)).body.reason, 'superseded');
  });

  it('refresh: presenting a spent token again revokes the whole session family', async () => {
    const first = await demoAccessToken(url);
    const second = (await refresh(first)).body.access_token as string;
    const newest = (await refresh(second)).body.access_token as string;
    assert.equal((await validate(newest)).status, 200);

    // Someone replays a spent token (stolen, or a copy): refused, and the family ends for everyone.
    const replay = await refresh(first);
    assert.equal(replay.status, 401);
    assert.equal(replay.body.reason, 'revoked');
    for (const token of [first, second, newest]) {
      assert.equal((await validate(token)).body.reason, 'revoked');
      assert.equal((await refresh(token)).body.reason, 'revoked');
    }
    assert.equal((await profile(newest)).status, 401);
    // Another sign-in of the same borrower is a family of its own: untouched.
    const other = await demoAccessToken(url);
    assert.equal((await refresh(other)).status, 200);
  });

  it('refresh: of concurrent refreshes of one token exactly one succeeds', async () => {
    const token = await demoAccessToken(url);
    const answers = await Promise.all(Array.from({ length: 12 }, () => refresh(token)));
    const winners = answers.filter((a) => a.status === 200);
    assert.equal(winners.length, 1, JSON.stringify(answers.map((a) => a.status)));
    assert.deepEqual(
      answers.filter((a) => a.status !== 200).map((a) => a.status),
      Array.from({ length: 11 }, () => 401),
    );
    // The losers presented a spent token: the family is revoked, the winner's token with it.
    const won = winners[0]!.body.access_token as string;
    assert.equal((await validate(won)).body.reason, 'revoked');
  });

  it('refresh: refused for an expired token and past the session maximum age', async () => {
    const sub = decodeAccessToken(await demoAccessToken(url))!.userId;
    const subject = { borrowerId: sub, email: 'demo@example.com', externalIds: [] };
    const expired = tokensOfServer.issue(
      subject,
      tokensOfServer.newSession(Date.now() - 1000_000),
      Date.now() - 1000_000,
    );
    assert.equal((await refresh(expired.token)).body.reason, 'expired');
    // Signed in 59 minutes ago (maximum age 60): the token is current but caps at the session's end...
    const old = tokensOfServer.issue(subject, tokensOfServer.newSession(Date.now() - 3540_000));
    assert.ok(old.claims.exp <= old.claims.auth_time + 3600);
    assert.equal((await refresh(old.token)).status, 200);
    // ...and a session past its maximum age cannot be refreshed at all.
    const past = tokensOfServer.issue(
      subject,
      tokensOfServer.newSession(Date.now() - 3600_000 - 5_000),
      Date.now() - 10_000,
    );
    assert.equal((await refresh(past.token)).body.reason, 'expired');
  });

  it('profile: the signed-in borrower, only with a current Bearer token', async () => {
    const token = await demoAccessToken(url);
    const ok = await profile(token);
    assert.equal(ok.status, 200);
    assert.deepEqual(
      { ...ok.body, id: undefined },
      {
        id: undefined,
        email: 'demo@example.com',
        firstName: 'Dana',
        lastName: 'Demo',
        externalIds: [],
        // The language on the borrower's profile in the identity provider (the demo's is English).
        locale: 'en-US',
      },
    );
    assert.equal(ok.body.id, decodeAccessToken(token)!.userId);
    const anonymous = await profile();
    assert.equal(anonymous.status, 401);
    assert.match(anonymous.body.message as string, /Bearer access token/);
    assert.equal((await profile('garbage')).status, 400);
  });

  it('public-keys: a cacheable JWKS that verifies issued tokens independently', async () => {
    const response = await fetch(`${url}${authEndpoints.publicKeys.path}`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('cache-control') ?? '', /max-age=300/);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const jwks = (await response.json()) as { keys: Array<{ kid: string; alg: string; d?: string }> };
    assert.ok(jwks.keys.length >= 1);
    assert.ok(
      jwks.keys.every((k) => k.alg === 'ES256' && k.d === undefined),
      'public parts only',
    );
    const { payload } = await jwtVerify(await demoAccessToken(url), createLocalJWKSet(jwks as never), {
      issuer: url,
      audience: 'customer-core',
      algorithms: ['ES256'],
    });
    assert.equal(payload.email, 'demo@example.com');
  });

  it('serves every endpoint of the contracts and no other API route, each in the OpenAPI description', async () => {
    const doc = (await (await fetch(`${url}/api/docs`)).json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
    };
    assert.match(doc.openapi, /^3\./);
    const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;
    const defined = Object.values(contracts)
      .filter(isObject)
      .flatMap((group): unknown[] => Object.values(group))
      .filter((value): value is Endpoint => isObject(value) && 'responses' in value)
      .map((endpoint) => `${endpoint.method} ${endpoint.path}`);
    // The product's API; the identity provider's Okta API (/api/v1) is its own, and /api/docs is this description.
    const served = server.server.routes
      .filter(
        (route) =>
          route.url.startsWith('/api/') && !route.url.startsWith('/api/v1/') && route.url !== '/api/docs',
      )
      .flatMap((route) =>
        [route.method]
          .flat()
          .filter((method) => method !== 'HEAD')
          .map((method) => `${method} ${route.url}`),
      );
    assert.ok(defined.length >= 50, `${defined.length} endpoints`);
    assert.deepEqual(new Set(served), new Set(defined));
    for (const endpoint of defined) {
      const [method, path] = endpoint.split(' ') as [string, string];
      const openApiPath = path.replace(/:(\w+)/g, '{$1}');
      assert.ok(doc.paths[openApiPath]?.[method.toLowerCase()], `${endpoint} is described`);
    }
  });
});

describe('lookup tokens', () => {
  const secret = 's'.repeat(40);
  let server: TestServer;
  let borrowerId: string;
  before(async () => {
    server = await startTestServer('pglite', {
      SERVICE_CREDENTIALS: `loan-servicing:lookup-tokens:${secret},other-system:lookup-tokens:${'o'.repeat(32)}`,
    });
    borrowerId = decodeAccessToken(await demoAccessToken(server.baseUrl))!.userId;
  });
  after(() => server?.close());

  const mint = (body: unknown, secret?: string) =>
    post(
      server.baseUrl,
      authEndpoints.mintLookupToken.path,
      body,
      secret ? { authorization: `Bearer ${secret}` } : {},
    );
  const exchange = (token: unknown) =>
    post(server.baseUrl, authEndpoints.lookupTokenExchange.path, { token });

  it('only a trusted system mints one', async () => {
    assert.equal((await mint({ borrowerId })).status, 401);
    assert.equal((await mint({ borrowerId }, 'x'.repeat(40))).status, 401);
    assert.equal((await mint({ borrowerId }, `loan-servicing:${secret}`)).status, 401);
    assert.equal(
      (await mint({ borrowerId }, await demoAccessToken(server.baseUrl))).status,
      401,
      'a borrower is no trusted system',
    );
    assert.equal((await mint({ borrowerId: 'not-a-uuid' }, secret)).status, 400);
    assert.equal((await mint({ borrowerId: '00000000-0000-4000-8000-000000000000' }, secret)).status, 404);
  });

  it('is exchanged once for an access token of the borrower', async () => {
    const ok = await json<{ token: string; expiresAt: string }>(await mint({ borrowerId }, secret));
    assert.equal(ok.status, 200);
    assert.ok(Date.parse(ok.body.expiresAt) - Date.now() <= 300_000);
    const first = await json<{ access_token: string }>(await exchange(ok.body.token));
    assert.equal(first.status, 200);
    assert.equal(decodeAccessToken(first.body.access_token)?.userId, borrowerId);
    const second = await json(await exchange(ok.body.token));
    assert.equal(second.status, 401);
    assert.match(second.body.message as string, /already used/);
    assert.equal((await exchange('never-minted')).status, 401);
    assert.equal((await exchange(123)).status, 400);
  });

  it('50 concurrent redemptions: exactly one succeeds', async () => {
    const { body } = await json<{ token: string }>(await mint({ borrowerId }, 'o'.repeat(32)));
    const statuses = await Promise.all(
      Array.from({ length: 50 }, async () => (await exchange(body.token)).status),
    );
    assert.equal(statuses.filter((s) => s === 200).length, 1);
    assert.equal(statuses.filter((s) => s === 401).length, 49);
  });
});
