import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { createIdentityProvider } from '../src/index.js';
import { quietProviderOptions } from '../testing/index.js';
import {
  CLIENT_ID,
  CookieJar,
  authn,
  authorizeUrl,
  exchangeCode,
  iframeAuthorize,
  openTestDb,
  TEST_SECRETS,
  pkce,
  postedMessage,
  signIn,
  startApp,
  type TestApp,
  type TestDb,
  PASSWORD,
} from './support.js';

describe('several instances on one database', () => {
  let testDb: TestDb;
  const apps: TestApp[] = [];

  before(async () => {
    testDb = await openTestDb('pglite');
  });
  after(async () => {
    for (const app of apps) await app.close();
    await testDb?.close();
  });

  test('concurrent first start-ups converge on one key set', async () => {
    const options = {
      db: testDb.db,
      secrets: TEST_SECRETS,
      issuer: 'http://localhost:1/oauth2/default',
      ...quietProviderOptions(),
    };
    const providers = await Promise.all([1, 2, 3].map(() => createIdentityProvider(options)));
    const [first, ...others] = providers.map((p) => p.publicKeys());
    for (const keys of others) assert.deepEqual(keys, first);
    const stored = await testDb.db.selectFrom('idp_key').select('name').orderBy('name').execute();
    assert.deepEqual(
      stored.map((k) => k.name),
      ['oidc-cookie-keys', 'oidc-signing-keys'],
    );
    await Promise.all(providers.map((p) => p.close()));
  });

  test('a second instance publishes the same key and honours the first one’s session cookie', async () => {
    const one = await startApp(testDb.db);
    apps.push(one);
    const issuerPort = Number(new URL(one.issuer).port);
    const two = await startApp(testDb.db, { issuerPort }); // same issuer, another socket
    apps.push(two);
    await one.idp.users.create({
      login: 'ada@example.com',
      password: PASSWORD,
      firstName: 'Ada',
      lastName: 'Lovelace',
    });

    const keysOf = async (app: TestApp) =>
      (await (await fetch(`${app.baseUrl}/oauth2/default/v1/keys`)).json()) as unknown;
    assert.deepEqual(await keysOf(two), await keysOf(one));
    assert.deepEqual(two.idp.publicKeys(), one.idp.publicKeys());

    // Signed in through instance one...
    const jar = new CookieJar();
    await signIn(one.baseUrl, jar, { username: 'ada@example.com', password: PASSWORD });
    // ...renewed through instance two with the cookie alone, tokens from two verified with one's keys.
    const { verifier, challenge } = pkce();
    const { message } = await iframeAuthorize(two.baseUrl, jar, { challenge });
    assert.ok(message.data.code, JSON.stringify(message.data));
    const tokens = await exchangeCode(two.baseUrl, message.data.code ?? '', verifier);
    assert.equal(tokens.status, 200);
    const { payload } = await jwtVerify(tokens.body.id_token ?? '', createLocalJWKSet(one.idp.publicKeys()), {
      issuer: one.issuer,
      audience: CLIENT_ID,
      algorithms: ['RS256'],
    });
    assert.equal(payload.email, 'ada@example.com');

    // A restart keeps the keys.
    await two.close();
    apps.pop();
    const restarted = await startApp(testDb.db, { issuerPort });
    apps.push(restarted);
    assert.deepEqual(restarted.idp.publicKeys(), one.idp.publicKeys());
    const again = await iframeAuthorize(restarted.baseUrl, jar);
    assert.ok(again.message.data.code);
  });

  test('secure cookies behind a TLS-terminating load balancer', async () => {
    const secure = await startApp(testDb.db, { secureCookies: true });
    apps.push(secure);
    const { sessionToken } = await secure.idp.issueSessionToken(
      (await secure.idp.users.findByLogin('ada@example.com'))?.id ?? '',
    );
    const url = authorizeUrl(secure.baseUrl, {
      sessionToken,
      challenge: pkce().challenge,
      prompt: 'none',
      responseMode: 'okta_post_message',
    });
    const response = await fetch(url, { headers: { 'x-forwarded-proto': 'https' } });
    assert.ok(postedMessage(await response.text()).data.code);
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('idp_session='));
    assert.match(cookie ?? '', /; secure/i);
    assert.match(cookie ?? '', /; samesite=lax/i);
  });

  test('the limit of sign-in requests per address is shared by the instances', async () => {
    const one = await startApp(testDb.db);
    const two = await startApp(testDb.db);
    apps.push(one, two);
    const address = { 'x-forwarded-for': '203.0.113.201' };
    for (let i = 0; i < 30; i += 1) {
      const { status } = await authn(i % 2 === 0 ? one.baseUrl : two.baseUrl, {}, address);
      assert.equal(status, 400);
    }
    for (const app of [one, two]) {
      const limited = await authn(app.baseUrl, {}, address);
      assert.equal(limited.status, 429);
      assert.equal(limited.body.errorCode, 'E0000047');
      assert.ok(Number(limited.response.headers.get('retry-after')) > 0);
    }
  });
});
