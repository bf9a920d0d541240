import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { authEndpoints, PORTAL_CONFIG_META_NAME, PortalConfigSchema } from '@customer-core/contracts';
import { DEMO_BORROWER } from '../src/loans/demo-borrower.js';
import { signInThroughIdp, startTestServer, type TestServer } from '../testing/index.js';
import { builtPortal, type BuiltPortal } from './support/built-portal.js';

// The portal pages are served by the same instance, from the folder the web's build writes: here one
// laid out as the build lays it out (the portal's own page, a hashed asset and its compressed copies),
// so these tests need no build. That the real build runs under this CSP is the browser tests' part.

describe('serving the portal', () => {
  let server: TestServer;
  let portal: BuiltPortal;
  const logLines: string[] = [];

  before(async () => {
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => logLines.push(...chunk.toString().split('\n').filter(Boolean)));
    portal = builtPortal();
    server = await startTestServer(
      'pglite',
      { LOG_LEVEL: 'debug', LENDER_NAME: 'Acme "Capital" <Funding> & Co' },
      { logStream, portalDir: portal.dir },
    );
  });
  after(async () => {
    await server?.close();
    portal?.remove();
  });

  /**
   * A GET sent and answered as it travels: fetch would resolve dot segments before they left, and
   * decode a compressed body.
   */
  const raw = (target: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
      request(`${server.baseUrl}/`, { path: target, headers }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
        .on('error', reject)
        .end();
    });
  const configured = new RegExp(`<meta name="${PORTAL_CONFIG_META_NAME}" content="[^"]`);

  it('answers app routes with the portal and its runtime configuration, escaped', async () => {
    const response = await fetch(`${server.baseUrl}/auth/login`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/html/);
    assert.equal(response.headers.get('cache-control'), 'no-cache');
    const html = await response.text();
    const content = new RegExp(`<meta name="${PORTAL_CONFIG_META_NAME}" content="([^"]*)">`).exec(html)?.[1];
    assert.ok(content, 'the config meta tag is filled in');
    const unescaped = content
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
    const config = PortalConfigSchema.parse(JSON.parse(unescaped));
    assert.equal(config.lender.name, 'Acme "Capital" <Funding> & Co');
    assert.equal(config.identityProviders.nonProduction.issuer, `${server.baseUrl}/oauth2/default`);
    assert.doesNotMatch(html, /<script>|<script [^>]*>[^<]/, 'no inline script');
  });

  it('sends security headers: CSP without inline script, no framing, no referrer, no sniffing', async () => {
    const response = await fetch(`${server.baseUrl}/ui/dashboard/`);
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    assert.equal(response.headers.get('strict-transport-security'), null, 'HSTS only in production');
  });

  it('caches hashed assets for a year', async () => {
    const html = await (await fetch(`${server.baseUrl}/`)).text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(asset);
    const response = await fetch(`${server.baseUrl}${asset}`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('cache-control') ?? '', /max-age=31536000, immutable/);
    assert.equal(response.headers.get('vary'), 'accept-encoding');
  });

  it('sends the build-time brotli copy to clients that accept it', async () => {
    const html = await (await fetch(`${server.baseUrl}/`)).text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(asset, 'the page names its script');
    const { headers } = await raw(asset, { 'accept-encoding': 'br' });
    assert.equal(headers['content-encoding'], 'br');
  });

  it("answers the portal's routes 200, and any other page address the portal with a 404", async () => {
    const page = async (path: string) => {
      const response = await fetch(`${server.baseUrl}${path}`);
      assert.match(response.headers.get('content-type') ?? '', /text\/html/, path);
      assert.match(await response.text(), configured, path);
      return response.status;
    };
    for (const path of [
      '/',
      '/auth/login',
      '/auth/password-reset/some-token?x=1',
      '/ui/dashboard/',
      '/ui/dashboard',
      '/ui/dashboard/loans/',
      '/ui/dashboard/loan-checkout/00000000-0000-4000-8000-000000000000',
      '/doc-checkout/loan/abc/start',
    ])
      assert.equal(await page(path), 200, path);
    for (const path of [
      '/no-such-page',
      '/auth/password-reset',
      '/auth/password-reset/a/b',
      '/ui/dashboard/nothing',
      '/doc-checkout/loan/abc',
      '/assets/missing.js',
    ])
      assert.equal(await page(path), 404, path);
  });

  it('sends the page only with its configuration, however its address is spelled, and no folder', async () => {
    for (const target of [
      '/index.html',
      '//index.html',
      '/./index.html',
      '/assets/../index.html',
      '/assets/%2e%2e/index.html',
      '/%69ndex.html',
      '/index.html?x=1',
      '/assets/',
    ]) {
      const { status, body } = await raw(target);
      assert.equal(status, 404, target);
      assert.match(body, configured, target);
    }
  });

  it('never serves a file from outside the build folder, nor a hidden one', async () => {
    const outside = `${path.basename(portal.dir)}-outside.txt`;
    const outsideFile = path.join(path.dirname(portal.dir), outside);
    writeFileSync(outsideFile, 'outside-canary');
    mkdirSync(path.join(portal.dir, '.vite'), { recursive: true });
    writeFileSync(path.join(portal.dir, '.vite', 'manifest.json'), 'hidden-canary');
    try {
      for (const target of [
        `/../${outside}`,
        `/..%2f${outside}`,
        `/%2e%2e/${outside}`,
        `/%2e%2e%2f${outside}`,
        `/assets/..%2f..%2f${outside}`,
        `/assets/%2e%2e/%2e%2e/${outside}`,
        `/..%5c${outside}`,
        '/.vite/manifest.json',
        '/%2evite/manifest.json',
      ]) {
        const { status, body } = await raw(target);
        assert.ok(status >= 400, `${target}: ${status} ${body.slice(0, 80)}`);
        assert.doesNotMatch(body, /canary/, target);
      }
    } finally {
      rmSync(outsideFile, { force: true });
    }
  });

  it('answers unknown API paths with a JSON 404, never the portal', async () => {
    for (const path of ['/api/nothing-here', '/api/auth/unknown', '/healthz/x']) {
      const response = await fetch(`${server.baseUrl}${path}`);
      assert.equal(response.status, 404, path);
      assert.equal(((await response.json()) as { error: string }).error, 'not_found');
    }
    assert.equal((await fetch(`${server.baseUrl}/auth/login`, { method: 'POST' })).status, 404);
  });

  it('reports health and readiness', async () => {
    assert.deepEqual(await (await fetch(`${server.baseUrl}/healthz`)).json(), { status: 'ok' });
    assert.deepEqual(await (await fetch(`${server.baseUrl}/readyz`)).json(), { status: 'ready' });
  });

  it('keeps a well-formed incoming request id on its log lines', async () => {
    const response = await fetch(`${server.baseUrl}${authEndpoints.tokenExchange.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'trace-abc-123' },
      body: JSON.stringify({ token: 'a.b.c' }),
    });
    assert.equal(response.status, 400);
    assert.ok(
      logLines.some((line) => line.includes('"reqId":"trace-abc-123"')),
      'a well-formed incoming request id is kept',
    );
  });

  it('never writes a password, session token, code or token to the log', async () => {
    const canaryPassword = 'Canary-Password-9f3a';
    await fetch(`${server.baseUrl}/api/v1/authn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: DEMO_BORROWER.login, password: canaryPassword }),
    });
    const { idToken, accessToken } = await signInThroughIdp(server.baseUrl, {
      username: DEMO_BORROWER.login,
      password: DEMO_BORROWER.password,
    });
    const exchanged = (await (
      await fetch(`${server.baseUrl}${authEndpoints.tokenExchange.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer header-canary-value' },
        body: JSON.stringify({ token: idToken }),
      })
    ).json()) as { access_token: string };
    await fetch(`${server.baseUrl}${authEndpoints.logout.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ access_token: exchanged.access_token }),
    });

    assert.ok(logLines.length > 10, 'the log was captured');
    const log = logLines.join('\n');
    for (const secret of [
      canaryPassword,
      DEMO_BORROWER.password,
      idToken,
      accessToken,
      exchanged.access_token,
      'header-canary-value',
    ]) {
      assert.ok(!log.includes(secret), `a secret reached the log: ${secret.slice(0, 12)}…`);
    }
    assert.doesNotMatch(log, /sessionToken=(?!\[redacted\])[\w-]{10,}/, 'no session token in a logged URL');
    assert.doesNotMatch(log, /[?&]code=(?!\[redacted\])[\w-]{10,}/, 'no authorization code in a logged URL');
  });
});
