import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { authEndpoints, SIGN_IN_TRACE_COOKIE } from '@customer-core/contracts';
import { createPostgresDatabase, type PostgresDatabase } from '@customer-core/database/testing';
import { createPgliteDataFolder } from '@customer-core/database/testing/data-folder';
import { idpMigrations } from '@customer-core/idp';
import { apiMigrations } from '../src/db/migrations.js';
import { DEMO_BORROWER } from '../src/loans/demo-borrower.js';
import { signInThroughIdp, type IdpCall } from '../testing/index.js';
import { startChildServer, type ChildServer } from './support/child-server.js';
import { inbox, tokenOf } from './support/links.js';
import { claimsOf, post } from './support/session.js';

// Traces: the real server process (main.ts, as `npm start` runs it) with OTEL_EXPORTER_OTLP_ENDPOINT
// set sends its spans through the real OTLP exporter to a receiver of the test's, standing in for a
// collector. A sign-in walked as the portal walks it (its trace context in the sign-in cookie) is one
// trace, with the database's spans under its requests, and nothing secret in any span. Database spans
// come from the PostgreSQL driver's instrumentation: with TEST_DATABASE_URL the server runs on
// PostgreSQL and they are checked; on PGlite (no driver) the rest is.

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: OtlpValue }>;
}
interface OtlpExport {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: OtlpValue }> };
    scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }>;
  }>;
}

const SERVER_KIND = 2;
const attribute = (span: OtlpSpan, key: string) => span.attributes?.find((a) => a.key === key)?.value;
/** The request's path without its (redacted) query. */
const pathOf = (span: OtlpSpan) => attribute(span, 'url.path')?.stringValue?.split('?')[0];

/** A collector's OTLP/HTTP endpoint: keeps each export's body, resolves waiters when what they need is in. */
function otlpReceiver() {
  const bodies: string[] = [];
  const spans: OtlpSpan[] = [];
  const services = new Set<string>();
  const waiting = new Set<() => void>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      if (request.url === '/v1/traces' && request.headers['content-type'] === 'application/json') {
        bodies.push(body);
        for (const resource of (JSON.parse(body) as OtlpExport).resourceSpans) {
          const service = resource.resource.attributes.find((a) => a.key === 'service.name');
          if (service?.value.stringValue) services.add(service.value.stringValue);
          for (const scope of resource.scopeSpans) spans.push(...scope.spans);
        }
      }
      response.writeHead(request.url === '/v1/traces' ? 200 : 404, { 'content-type': 'application/json' });
      response.end('{}');
      for (const check of waiting) check();
    });
  });
  return {
    server,
    bodies,
    spans,
    services,
    /** Resolves once `found` finds something in the spans received (already, or with a later export). */
    until<T>(found: (spans: OtlpSpan[]) => T | undefined): Promise<T> {
      return new Promise((resolve) => {
        const check = () => {
          const result = found(spans);
          if (result === undefined) return;
          waiting.delete(check);
          resolve(result);
        };
        waiting.add(check);
        check();
      });
    },
  };
}

// A safety net, not a timing assertion: a span that never comes would otherwise wait forever. Generous:
// on a loaded 2-core machine the traced server alone took 50 to 65 s to load through tsx and
// OpenTelemetry's import hooks (5 s on a quiet one).
describe('traces sent over OTLP', { timeout: 300_000 }, () => {
  const receiver = otlpReceiver();
  let server: ChildServer;
  let database: PostgresDatabase | undefined;
  let dataDir: string;

  before(async () => {
    receiver.server.listen(0, '127.0.0.1');
    await once(receiver.server, 'listening');
    const { port } = receiver.server.address() as AddressInfo;
    dataDir = await mkdtemp(path.join(tmpdir(), 'customer-core-traces-'));
    if (process.env.TEST_DATABASE_URL) {
      database = await createPostgresDatabase(process.env.TEST_DATABASE_URL, 'customer_core_test');
    } else {
      await createPgliteDataFolder(path.join(dataDir, 'pglite'), { api: apiMigrations, idp: idpMigrations });
    }
    server = await startChildServer({
      DATA_DIR: dataDir,
      ...(database ? { DATABASE_URL: database.url } : {}),
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '50',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
    });
  });
  after(async () => {
    await server?.stop();
    receiver.server.close();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('shows a sign-in as one trace, the database under its requests, no secret in any span', async () => {
    const url = server.url;
    // The portal's sign-in makes its trace context as it starts and keeps it in a cookie.
    const traceId = randomBytes(16).toString('hex');
    const cookie = `${SIGN_IN_TRACE_COOKIE}=00-${traceId}-${randomBytes(8).toString('hex')}-01`;

    // authn, the prompt=none authorize with PKCE and the token endpoint, as okta-auth-js calls them
    // (signInThroughIdp), each with the cookie; what they carried is kept for the probe below.
    const calls: Array<{ url: URL; body?: string; answer: string; cookies: string[] }> = [];
    const withTraceCookie: IdpCall = async (to, init = {}) => {
      const response = await fetch(to, { ...init, headers: { ...init.headers, cookie } });
      const answer = await response.text();
      const cookies = response.headers.getSetCookie().map((line) => line.split(';', 1)[0]!.split('=')[1]!);
      calls.push({ url: new URL(to), body: init.body, answer, cookies });
      return { status: response.status, text: () => Promise.resolve(answer) };
    };
    const idpTokens = await signInThroughIdp(
      url,
      { username: DEMO_BORROWER.login, password: DEMO_BORROWER.password },
      'customer-portal',
      url,
      withTraceCookie,
    );
    const [authnCall, authorizeCall, tokenCall] = calls;
    const { sessionToken } = JSON.parse(authnCall!.answer) as { sessionToken: string };
    const authorizeParams = authorizeCall!.url.searchParams;
    const tokenForm = new URLSearchParams(tokenCall!.body);
    const exchange = await fetch(`${url}${authEndpoints.tokenExchange.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ token: idpTokens.idToken }),
    });
    assert.equal(exchange.status, 200);
    const { access_token: accessToken } = (await exchange.json()) as { access_token: string };

    const paths = [
      '/api/v1/authn',
      '/oauth2/default/v1/authorize',
      '/oauth2/default/v1/token',
      authEndpoints.tokenExchange.path,
    ];
    const requests = await receiver.until((spans) => {
      const found = paths.map((path) => spans.find((s) => s.kind === SERVER_KIND && pathOf(s) === path));
      return found.every(Boolean) ? (found as OtlpSpan[]) : undefined;
    });
    assert.deepEqual(
      requests.map((span) => span.traceId),
      paths.map(() => traceId),
      'authn, authorize, token and exchange are one trace',
    );

    // Each request's database work is under the request: a query span whose ancestors reach its span.
    const byId = new Map(receiver.spans.map((span) => [span.spanId, span]));
    const underRequest = (span: OtlpSpan, request: OtlpSpan) => {
      for (let at: OtlpSpan | undefined = span; at; at = byId.get(at.parentSpanId ?? '')) {
        if (at.spanId === request.spanId) return true;
      }
      return false;
    };
    const queriesOf = (request: OtlpSpan) =>
      receiver.spans
        .filter((s) => attribute(s, 'db.system.name') ?? attribute(s, 'db.system'))
        .filter((s) => underRequest(s, request));
    for (const request of database ? requests : []) {
      const queries = await receiver.until(() => {
        const found = queriesOf(request);
        return found.length > 0 ? found : undefined;
      });
      for (const query of queries) assert.equal(query.traceId, traceId);
      const statement = queries.map((q) => attribute(q, 'db.query.text') ?? attribute(q, 'db.statement'));
      assert.ok(
        statement.some((s) => s?.stringValue?.includes('$1')),
        'statements are recorded, with placeholders for their values',
      );
    }
    assert.ok(receiver.services.has('customer-core'), 'the service is named');

    // Log lines carry the trace id.
    const logged = await server.printed(new RegExp(`"trace_id":"${traceId}"`));
    assert.match(logged, /"span_id":"[0-9a-f]{16}"/);

    // An e-mailed sign-in link: its token is in the page's path, then in the API call's body.
    assert.equal(
      (await post(url, authEndpoints.sendMagicLinkEmail.path, { email: DEMO_BORROWER.login })).status,
      200,
    );
    // The server is a process of its own: its log tells when the message is in the mailbox.
    const to = JSON.stringify(DEMO_BORROWER.login).replace(/[.+]/g, '\\$&');
    await server.printed(new RegExp(`"to":${to}.*"msg":"mail: delivered"`));
    const [message] = await inbox(url, DEMO_BORROWER.login);
    const linkToken = tokenOf(message!, 'magic-link-landing');
    await fetch(`${url}/auth/magic-link-landing/${encodeURIComponent(linkToken)}`);
    assert.equal((await post(url, authEndpoints.magicLinkLogin.path, { token: linkToken })).status, 200);
    await receiver.until((spans) =>
      spans.find((s) => s.kind === SERVER_KIND && pathOf(s) === authEndpoints.magicLinkLogin.path),
    );
    const landing = receiver.spans.find((s) =>
      attribute(s, 'url.path')?.stringValue?.startsWith('/auth/magic-link-landing/'),
    );
    assert.equal(attribute(landing!, 'url.path')?.stringValue, '/auth/magic-link-landing/[redacted]');

    const secrets = {
      password: DEMO_BORROWER.password,
      sessionToken,
      state: authorizeParams.get('state')!,
      nonce: authorizeParams.get('nonce')!,
      codeVerifier: tokenForm.get('code_verifier')!,
      code: tokenForm.get('code')!,
      idToken: idpTokens.idToken,
      idpAccessToken: idpTokens.accessToken,
      accessToken,
      accessTokenClaims: accessToken.split('.')[1]!,
      sessionId: claimsOf(accessToken).sid,
      linkToken,
      ...Object.fromEntries(authorizeCall!.cookies.map((value, i) => [`idpCookie${i}`, value])),
    };
    const sent = receiver.bodies.join('\n');
    for (const [name, secret] of Object.entries(secrets)) {
      assert.ok(secret.length >= 8 && !sent.includes(secret), `no ${name} in any span`);
    }
    assert.ok(sent.includes('sessionToken=[redacted]'), 'query parameter names are kept, their values not');
  });
});
