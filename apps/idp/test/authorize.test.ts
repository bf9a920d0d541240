import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { sql } from 'kysely';
import {
  CLIENT_ID,
  PORTAL,
  REDIRECT_URI,
  CookieJar,
  authn,
  authorizeUrl,
  browserFetch,
  exchangeCode,
  iframeAuthorize,
  openTestDb,
  pkce,
  postedMessage,
  signIn,
  startApp,
  type TestApp,
  type TestDb,
  PASSWORD,
} from './support.js';

const CREDENTIALS = { username: 'ada@example.com', password: PASSWORD };

describe('authorization server', () => {
  let testDb: TestDb;
  let server: TestApp;
  let userId: string;
  const secrets = new Set<string>(); // everything that must never be logged

  // oidc-provider warns on the console (once a process) of what it finds amiss in its mounting.
  const providerWarnings: string[] = [];
  const consoleWarn = console.warn;
  before(async () => {
    console.warn = (...args: unknown[]) => {
      providerWarnings.push(args.map(String).join(' '));
      consoleWarn(...args);
    };
    testDb = await openTestDb('pglite');
    server = await startApp(testDb.db);
    const user = await server.idp.users.create({
      login: 'ada@example.com',
      password: PASSWORD,
      firstName: 'Ada',
      lastName: 'Lovelace',
      locale: 'en_GB',
      timeZone: 'Europe/London',
    });
    userId = user.id;
  });
  after(async () => {
    console.warn = consoleWarn;
    await server?.close();
    await testDb?.close();
  });

  const newSessionToken = async () => {
    const { status, body } = await authn(server.baseUrl, CREDENTIALS);
    assert.equal(status, 200);
    const token = body.sessionToken as string;
    secrets.add(token);
    return token;
  };
  const remember = (...values: Array<string | undefined>) => values.forEach((v) => v && secrets.add(v));

  test('discovery and keys are what okta-auth-js reads', async () => {
    // Endpoint URLs follow the request's host: ask the way okta-auth-js does, at the issuer.
    const discovery = (await (
      await fetch(`${server.issuer}/.well-known/openid-configuration`)
    ).json()) as Record<string, unknown>;
    assert.equal(discovery.issuer, server.issuer);
    assert.equal(discovery.authorization_endpoint, `${server.issuer}/v1/authorize`);
    assert.equal(discovery.token_endpoint, `${server.issuer}/v1/token`);
    assert.equal(discovery.userinfo_endpoint, `${server.issuer}/v1/userinfo`);
    assert.equal(discovery.end_session_endpoint, `${server.issuer}/v1/logout`);
    assert.equal(discovery.revocation_endpoint, `${server.issuer}/v1/revoke`);
    assert.equal(discovery.jwks_uri, `${server.issuer}/v1/keys`);
    assert.deepEqual(discovery.code_challenge_methods_supported, ['S256']);
    assert.ok((discovery.response_modes_supported as string[]).includes('okta_post_message'));
    assert.deepEqual(discovery.id_token_signing_alg_values_supported, ['RS256']);

    const keys = (await (await fetch(`${server.baseUrl}/oauth2/default/v1/keys`)).json()) as {
      keys: Array<Record<string, string>>;
    };
    assert.equal(keys.keys.length, 1);
    const [key] = keys.keys;
    assert.equal(key?.kty, 'RSA');
    assert.equal(key?.alg, 'RS256');
    assert.equal(key?.use, 'sig');
    assert.ok(key?.kid);
    for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi']) assert.equal(key?.[member], undefined, member);
    assert.deepEqual(server.idp.publicKeys(), keys);
  });

  test('sign-in: authn, hidden-iframe authorize with the session token, token endpoint, userinfo', async () => {
    const jar = new CookieJar();
    const sessionToken = await newSessionToken();
    const { verifier, challenge } = pkce();
    const { response, message, state } = await iframeAuthorize(server.baseUrl, jar, {
      sessionToken,
      challenge,
    });
    assert.equal(response.status, 200);
    assert.equal(message.targetOrigin, PORTAL);
    assert.deepEqual(Object.keys(message.data).sort(), ['code', 'state']);
    assert.equal(message.data.state, state);
    assert.ok(jar.has('idp_session'), 'the IdP session cookie is set');
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('idp_session='));
    assert.match(cookie ?? '', /; samesite=lax/i);
    assert.match(cookie ?? '', /; httponly/i);
    assert.match(cookie ?? '', /; path=\//i);
    assert.doesNotMatch(cookie ?? '', /; secure/i);
    assert.ok(jar.has('idp_session.sig'), 'and signed with the stored cookie key');

    const tokens = await exchangeCode(server.baseUrl, message.data.code ?? '', verifier, {
      origin: PORTAL,
    });
    assert.equal(tokens.status, 200);
    assert.equal(tokens.response.headers.get('access-control-allow-origin'), PORTAL);
    const {
      id_token: idToken = '',
      access_token: accessToken = '',
      refresh_token: refreshToken,
    } = tokens.body;
    remember(message.data.code, idToken, accessToken, refreshToken);
    assert.equal(tokens.body.token_type, 'Bearer');
    assert.ok(refreshToken, 'a refresh token, as the fallback for iframe renewal');
    assert.ok(!accessToken.includes('.'), 'the access token is opaque');

    const { payload, protectedHeader } = await jwtVerify(
      idToken,
      createLocalJWKSet(server.idp.publicKeys()),
      {
        issuer: server.issuer,
        audience: CLIENT_ID,
        algorithms: ['RS256'],
      },
    );
    assert.equal(protectedHeader.kid, server.idp.publicKeys().keys[0]?.kid);
    assert.equal(payload.sub, userId);
    assert.equal(payload.email, 'ada@example.com');
    assert.equal(payload.email_verified, true);
    assert.equal(payload.name, 'Ada Lovelace');
    assert.equal(payload.given_name, 'Ada');
    assert.equal(payload.family_name, 'Lovelace');
    assert.equal(payload.preferred_username, 'ada@example.com');
    assert.equal(payload.locale, 'en-GB');
    assert.equal(payload.zoneinfo, 'Europe/London');
    assert.deepEqual(payload.amr, ['pwd']);
    assert.equal(typeof payload.auth_time, 'number');

    const userinfo = await fetch(`${server.baseUrl}/oauth2/default/v1/userinfo`, {
      headers: { authorization: `Bearer ${accessToken}`, origin: PORTAL },
    });
    assert.equal(userinfo.status, 200);
    assert.equal(userinfo.headers.get('access-control-allow-origin'), PORTAL);
    const claims = (await userinfo.json()) as Record<string, unknown>;
    assert.equal(claims.sub, payload.sub);
    assert.equal(claims.email, 'ada@example.com');
    assert.equal(claims.name, 'Ada Lovelace');

    // Renewal through the iframe: prompt=none with the session cookie alone.
    const renewed = await iframeAuthorize(server.baseUrl, jar);
    assert.ok(renewed.message.data.code);
    remember(renewed.message.data.code);
  });

  test('the token endpoint refuses other origins and a wrong PKCE verifier', async () => {
    const jar = new CookieJar();
    const sessionToken = await newSessionToken();
    const { verifier, challenge } = pkce();
    const { message } = await iframeAuthorize(server.baseUrl, jar, { sessionToken, challenge });
    remember(message.data.code);
    const evil = await exchangeCode(server.baseUrl, message.data.code ?? '', verifier, {
      origin: 'https://evil.example',
    });
    assert.equal(evil.response.headers.get('access-control-allow-origin'), null);
    assert.equal(evil.body.access_token, undefined);
    const wrong = await exchangeCode(server.baseUrl, message.data.code ?? '', pkce().verifier);
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error, 'invalid_grant');
  });

  test('control characters in OAuth parameters are refused before any lookup: 400 invalid_request', async () => {
    const nul = await exchangeCode(server.baseUrl, 'code\u0000', pkce().verifier);
    assert.equal(nul.status, 400);
    assert.equal(nul.body.error, 'invalid_request');
    const refresh = await fetch(`${server.baseUrl}/oauth2/default/v1/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: CLIENT_ID,
        grant_type: 'refresh_token',
        refresh_token: 'a\u0000b',
      }),
    });
    assert.equal(refresh.status, 400);
    assert.equal(((await refresh.json()) as { error: string }).error, 'invalid_request');
    const authorize = authorizeUrl(server.baseUrl, { sessionToken: '\u0000', challenge: pkce().challenge });
    const page = await fetch(authorize, { redirect: 'manual' });
    assert.equal(page.status, 400);
    assert.equal(((await page.json()) as { error: string }).error, 'invalid_request');
    // A real exchange still works after the refusals (the form body is read once, then handed on).
    await signIn(server.baseUrl, new CookieJar(), CREDENTIALS);
  });

  test('PKCE is required', async () => {
    const jar = new CookieJar();
    const sessionToken = await newSessionToken();
    const url = authorizeUrl(server.baseUrl, {
      sessionToken,
      prompt: 'none',
      responseMode: 'okta_post_message',
    });
    const message = postedMessage(await (await browserFetch(jar, url)).text());
    assert.equal(message.data.error, 'invalid_request');
    assert.ok(message.data.error_description);
    assert.equal(message.data.code, undefined);
    // The token was not spent on a request that could not succeed.
    const retry = await iframeAuthorize(server.baseUrl, jar, { sessionToken });
    assert.ok(retry.message.data.code);
    remember(retry.message.data.code);
  });

  test('a session token is one-time: another browser gets login_required', async () => {
    const sessionToken = await newSessionToken();
    const first = await iframeAuthorize(server.baseUrl, new CookieJar(), { sessionToken });
    assert.ok(first.message.data.code);
    remember(first.message.data.code);
    const replay = await iframeAuthorize(server.baseUrl, new CookieJar(), { sessionToken });
    assert.equal(replay.message.data.code, undefined);
    assert.equal(replay.message.data.error, 'login_required');
    assert.ok(replay.message.data.error_description);
    assert.equal(replay.message.data.state, replay.state);
  });

  test('the double presentation: iframe then full-page redirect in the same browser; not elsewhere', async () => {
    const jar = new CookieJar();
    const sessionToken = await newSessionToken();
    const iframe = await iframeAuthorize(server.baseUrl, jar, { sessionToken });
    assert.ok(iframe.message.data.code);
    remember(iframe.message.data.code);

    // signInWithRedirect({ sessionToken }): full-page authorize, same token, same browser.
    const { verifier, challenge } = pkce();
    const state = randomBytes(8).toString('hex');
    const redirect = await browserFetch(
      jar,
      authorizeUrl(server.baseUrl, { sessionToken, challenge, state }),
    );
    assert.equal(redirect.status, 303);
    const location = new URL(redirect.headers.get('location') ?? '');
    assert.equal(`${location.origin}${location.pathname}`, REDIRECT_URI);
    assert.equal(location.searchParams.get('state'), state);
    const code = location.searchParams.get('code') ?? '';
    remember(code);
    assert.ok(code);
    const tokens = await exchangeCode(server.baseUrl, code, verifier);
    assert.equal(tokens.status, 200);
    remember(tokens.body.access_token, tokens.body.id_token, tokens.body.refresh_token);

    // The same token replayed from another browser.
    const other = await browserFetch(
      new CookieJar(),
      authorizeUrl(server.baseUrl, { sessionToken, challenge: pkce().challenge }),
    );
    assert.equal(other.status, 303);
    const refused = new URL(other.headers.get('location') ?? '');
    assert.equal(`${refused.origin}${refused.pathname}`, REDIRECT_URI);
    assert.equal(refused.searchParams.get('error'), 'login_required');
    assert.equal(refused.searchParams.get('code'), null);
  });

  test('a frame on another site that sends and keeps no cookie gets the code in one response; the redirect after it, login_required', async () => {
    // A portal on another site than the provider, in a browser that blocks third-party cookies.
    const sessionToken = await newSessionToken();
    const { verifier, challenge } = pkce();
    const state = randomBytes(8).toString('hex');
    const url = authorizeUrl(server.baseUrl, {
      sessionToken,
      challenge,
      state,
      prompt: 'none',
      responseMode: 'okta_post_message',
    });
    const frame = await fetch(url, {
      redirect: 'manual',
      headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'iframe', 'sec-fetch-mode': 'navigate' },
    });
    assert.equal(frame.status, 200, 'the answer itself, no interaction redirect');
    assert.equal(frame.headers.get('location'), null);
    const message = postedMessage(await frame.text());
    assert.deepEqual(Object.keys(message.data).sort(), ['code', 'state']);
    assert.equal(message.data.state, state);
    remember(message.data.code);
    // Offered all the same, for a browser that keeps it.
    const offered = frame.headers.getSetCookie().map((cookie) => cookie.split('=')[0]);
    assert.ok(offered.includes('idp_session'), 'the session cookie is offered');
    assert.ok(!offered.some((name) => name?.startsWith('idp_interaction')), 'no interaction cookie');
    const tokens = await exchangeCode(server.baseUrl, message.data.code ?? '', verifier, {
      origin: PORTAL,
    });
    assert.equal(tokens.status, 200);
    remember(tokens.body.access_token, tokens.body.id_token, tokens.body.refresh_token);

    // signInWithRedirect({ sessionToken }) from that browser, which kept no cookie: to the provider
    // it is any browser presenting a spent token, so it gets nothing (the portal signed in already).
    const redirect = await browserFetch(
      new CookieJar(),
      authorizeUrl(server.baseUrl, { sessionToken, challenge: pkce().challenge }),
    );
    assert.equal(redirect.status, 303);
    const refused = new URL(redirect.headers.get('location') ?? '');
    assert.equal(`${refused.origin}${refused.pathname}`, REDIRECT_URI);
    assert.equal(refused.searchParams.get('error'), 'login_required');
    assert.equal(refused.searchParams.get('code'), null);
  });

  test('signing in again in a browser with a session gives it a new session cookie (no fixation)', async () => {
    const jar = new CookieJar();
    const first = await iframeAuthorize(server.baseUrl, jar, { sessionToken: await newSessionToken() });
    remember(first.message.data.code);
    const before = jar.copy();
    assert.ok(before.get('idp_session'));
    const again = await iframeAuthorize(server.baseUrl, jar, { sessionToken: await newSessionToken() });
    remember(again.message.data.code);
    assert.ok(again.message.data.code);
    assert.ok(jar.get('idp_session'));
    assert.notEqual(jar.get('idp_session'), before.get('idp_session'));
    // The cookie from before the sign-in names no session any more.
    const stale = await iframeAuthorize(server.baseUrl, before);
    assert.equal(stale.message.data.error, 'login_required');
  });

  test('the second presentation does not work in a session of another account', async () => {
    await server.idp.users.create({
      login: 'eve@example.com',
      password: PASSWORD,
      firstName: 'Eve',
      lastName: 'Example',
    });
    const jar = new CookieJar();
    const adaToken = await newSessionToken();
    assert.ok((await iframeAuthorize(server.baseUrl, jar, { sessionToken: adaToken })).message.data.code);
    // Eve signs in in this browser: the session now belongs to Eve.
    const eve = await authn(server.baseUrl, { username: 'eve@example.com', password: PASSWORD });
    const eveToken = eve.body.sessionToken as string;
    remember(eveToken);
    const asEve = await iframeAuthorize(server.baseUrl, jar, { sessionToken: eveToken });
    assert.ok(asEve.message.data.code);
    // Ada's spent token is not honoured by Eve's session.
    const replay = await iframeAuthorize(server.baseUrl, jar, { sessionToken: adaToken });
    assert.equal(replay.message.data.error, 'login_required');
  });

  test('without a session: login_required, in the iframe page and at the redirect URI', async () => {
    const iframe = await iframeAuthorize(server.baseUrl, new CookieJar());
    assert.equal(iframe.message.data.error, 'login_required');
    assert.equal(iframe.message.data.state, iframe.state);

    const jar = new CookieJar();
    const fullPage = await browserFetch(
      jar,
      authorizeUrl(server.baseUrl, { challenge: pkce().challenge, state: 'xyz' }),
    );
    assert.equal(fullPage.status, 303);
    const location = new URL(fullPage.headers.get('location') ?? '');
    assert.equal(`${location.origin}${location.pathname}`, REDIRECT_URI);
    assert.equal(location.searchParams.get('error'), 'login_required');
    assert.equal(location.searchParams.get('state'), 'xyz');
    assert.ok(!jar.has('idp_interaction'), 'no interaction is started: there is no login page');
    const interactions = await sql<{
      n: number;
    }>`select count(*)::int as n from idp_oidc_model where model = 'Interaction'`.execute(testDb.db);
    assert.equal(interactions.rows[0]?.n, 0);

    const garbage = await iframeAuthorize(server.baseUrl, new CookieJar(), { sessionToken: 'not-a-token' });
    assert.equal(garbage.message.data.error, 'login_required');
  });

  test('an expired session token gets login_required', async () => {
    const sessionToken = await newSessionToken();
    await sql`update idp_session_token set expires_at = now() - interval '1 second'
      where token_hash = ${createHash('sha256').update(sessionToken).digest('hex')}`.execute(testDb.db);
    const { message } = await iframeAuthorize(server.baseUrl, new CookieJar(), { sessionToken });
    assert.equal(message.data.error, 'login_required');
    assert.equal(message.data.code, undefined);
  });

  test('50 concurrent redemptions of one token in separate browsers give exactly one code', async () => {
    const sessionToken = await newSessionToken();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => iframeAuthorize(server.baseUrl, new CookieJar(), { sessionToken })),
    );
    const codes = results.map((r) => r.message.data.code).filter(Boolean);
    assert.equal(codes.length, 1);
    remember(...codes);
    assert.equal(results.filter((r) => r.message.data.error === 'login_required').length, 49);
  });

  test('the okta_post_message page: target origin, escaping, and who may frame it', async () => {
    const state = `</script><script>alert(1)</script>\u2028<!--"'&`;
    const { response, message } = await iframeAuthorize(server.baseUrl, new CookieJar(), { state });
    assert.equal(message.targetOrigin, PORTAL);
    assert.equal(message.data.state, state);
    assert.equal(message.data.error, 'login_required');
    assert.equal(message.html.split('</script').length, 2, 'exactly one closing script tag');
    assert.ok(!message.script.includes('\u2028'));
    assert.ok(!message.script.includes('<!--'));

    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(csp, new RegExp(`frame-ancestors ${PORTAL}(;|$)`));
    const digest = createHash('sha256').update(message.script).digest('base64');
    assert.ok(csp.includes(`script-src 'sha256-${digest}'`), csp);
    assert.ok(!csp.includes('unsafe-inline'));
    assert.equal(response.headers.get('x-frame-options'), null);
    assert.equal(response.headers.get('cross-origin-opener-policy'), null);
    assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
    assert.match(response.headers.get('cache-control') ?? '', /no-store/);
    assert.match(response.headers.get('content-type') ?? '', /text\/html/);
  });

  test('other provider responses cannot be framed and errors are JSON', async () => {
    const response = await fetch(`${server.baseUrl}/oauth2/default/v1/authorize?client_id=unknown`, {
      headers: { accept: 'text/html' },
    });
    assert.equal(response.status, 400);
    assert.match(response.headers.get('content-type') ?? '', /application\/json/);
    const body = (await response.json()) as Record<string, unknown>;
    assert.equal(body.error, 'invalid_client');
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    assert.match(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    const missing = await fetch(`${server.baseUrl}/oauth2/default/v1/nothing-here`);
    assert.equal(missing.status, 404);
  });

  test('refresh tokens work, and are revoked on reuse', async () => {
    const { tokens } = await signIn(server.baseUrl, new CookieJar(), CREDENTIALS);
    remember(tokens.access_token, tokens.id_token, tokens.refresh_token);
    const refresh = (token: string) =>
      fetch(`${server.baseUrl}/oauth2/default/v1/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: CLIENT_ID,
          grant_type: 'refresh_token',
          refresh_token: token,
        }),
      });
    const first = await refresh(tokens.refresh_token ?? '');
    assert.equal(first.status, 200);
    const rotated = (await first.json()) as Record<string, string>;
    remember(rotated.access_token, rotated.id_token, rotated.refresh_token);
    assert.ok(rotated.refresh_token && rotated.refresh_token !== tokens.refresh_token);
    const reuse = await refresh(tokens.refresh_token ?? '');
    assert.equal(reuse.status, 400);
    // Reuse revokes the family: the rotated token dies too.
    const family = await refresh(rotated.refresh_token ?? '');
    assert.equal(family.status, 400);
  });

  test('endSessions signs the account out everywhere and revokes its tokens', async () => {
    const jar = new CookieJar();
    const otherBrowser = new CookieJar();
    const { tokens } = await signIn(server.baseUrl, jar, CREDENTIALS);
    await signIn(server.baseUrl, otherBrowser, CREDENTIALS);
    remember(tokens.access_token, tokens.id_token, tokens.refresh_token);
    const pending = await newSessionToken(); // issued, not yet used

    await server.idp.endSessions(userId);

    for (const browser of [jar, otherBrowser]) {
      const { message } = await iframeAuthorize(server.baseUrl, browser);
      assert.equal(message.data.error, 'login_required');
    }
    const userinfo = await fetch(`${server.baseUrl}/oauth2/default/v1/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    assert.equal(userinfo.status, 401);
    const refreshed = await fetch(`${server.baseUrl}/oauth2/default/v1/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: CLIENT_ID,
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token ?? '',
      }),
    });
    assert.equal(refreshed.status, 400);
    assert.equal(((await refreshed.json()) as Record<string, string>).error, 'invalid_grant');
    const unused = await iframeAuthorize(server.baseUrl, new CookieJar(), { sessionToken: pending });
    assert.equal(unused.message.data.error, 'login_required');
  });

  test('RP-initiated logout at /v1/logout needs no screen', async () => {
    const jar = new CookieJar();
    const { tokens } = await signIn(server.baseUrl, jar, CREDENTIALS);
    remember(tokens.access_token, tokens.id_token, tokens.refresh_token);
    const logout = new URL(`${server.baseUrl}/oauth2/default/v1/logout`);
    logout.search = new URLSearchParams({
      id_token_hint: tokens.id_token ?? '',
      post_logout_redirect_uri: `${PORTAL}/auth/login`,
      state: 'bye',
    }).toString();
    const page = await browserFetch(jar, logout);
    assert.equal(page.status, 200);
    const html = await page.text();
    const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? '';
    const digest = createHash('sha256').update(script).digest('base64');
    assert.ok((page.headers.get('content-security-policy') ?? '').includes(`'sha256-${digest}'`));
    const form = new URLSearchParams();
    for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)) {
      form.set(name ?? '', value ?? '');
    }
    assert.equal(form.get('logout'), 'yes');
    const action = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(html)?.[1] ?? '';
    // The action is built from the issuer; post it to this socket.
    const confirm = await browserFetch(jar, `${server.baseUrl}${new URL(action).pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    assert.equal(confirm.status, 303);
    assert.equal(confirm.headers.get('location'), `${PORTAL}/auth/login?state=bye`);
    const { message } = await iframeAuthorize(server.baseUrl, jar);
    assert.equal(message.data.error, 'login_required');
  });

  test('refuses an id_token_hint that is no JWT with 400, at logout and authorize alike', async () => {
    // "null"."null". made oidc-provider fail with a 500 (found by the hostile-input run).
    for (const hint of ['bnVsbA.bnVsbA.', 'W10.W10.', 'bm90IGpzb24.e30.', 'one.two']) {
      for (const endpoint of ['v1/logout', 'v1/authorize']) {
        const url = new URL(`${server.baseUrl}/oauth2/default/${endpoint}`);
        url.search = new URLSearchParams({ id_token_hint: hint, client_id: 'customer-portal' }).toString();
        const answer = await browserFetch(new CookieJar(), url);
        assert.equal(answer.status, 400, `${endpoint} with ${JSON.stringify(hint)}`);
        assert.equal(((await answer.json()) as { error: string }).error, 'invalid_request');
      }
    }
  });

  test('refuses a form-posted id_token_hint that is no JWT with 400, as one in the query', async () => {
    const answer = await browserFetch(new CookieJar(), `${server.baseUrl}/oauth2/default/v1/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ id_token_hint: 'bnVsbA.bnVsbA.', client_id: 'customer-portal' }).toString(),
    });
    assert.equal(answer.status, 400);
    assert.equal(((await answer.json()) as { error: string }).error, 'invalid_request');
  });

  test('never echoes a malformed Origin into Access-Control-Allow-Origin (found by the hostile-input run)', async () => {
    for (const origin of ['\u00e9'.repeat(4000), 'not an origin', `http://${'a'.repeat(400)}.example`]) {
      const answer = await browserFetch(
        new CookieJar(),
        `${server.baseUrl}/oauth2/default/request?client_id=customer-portal&response_type=code`,
        {
          method: 'POST',
          headers: { origin, 'content-type': 'application/json', authorization: 'Basic Zm9vOmJhcg==' },
          body: '{}',
        },
      );
      assert.equal(answer.status, 400);
      // As without an Origin at all: "*" (no credentials), never the header sent.
      assert.equal(answer.headers.get('access-control-allow-origin'), '*', origin.slice(0, 20));
    }
  });

  test('oidc-provider reads every form body itself: no warning of a body parsed before it', () => {
    // Form bodies are read first, for the refusals above, then handed on to be read again.
    assert.deepEqual(
      providerWarnings.filter((warning) => warning.includes('already parsed')),
      [],
    );
  });

  test('no secret reaches the logs', () => {
    const all = server.logs.join('\n');
    assert.ok(all.includes('session token redeemed'), 'the log is captured');
    assert.ok(!all.includes(PASSWORD));
    assert.ok(secrets.size > 20);
    for (const secret of secrets)
      assert.ok(!all.includes(secret), `a secret was logged: ${secret.slice(0, 6)}…`);
  });
});
