import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { authEndpoints } from '@customer-core/contracts';
import {
  addBorrower,
  sampleValue,
  scrape,
  signInThroughIdp,
  startPrometheus,
  startTestServer,
  type TestServer,
} from '../testing/index.js';
import { post } from './support/session.js';

// The metrics an operator's Prometheus scrapes from METRICS_PORT, counted by what real requests did;
// the alert rules over them, checked and unit-tested by promtool; a real Prometheus scraping them.

const RULES = path.resolve(import.meta.dirname, '../../../deploy/prometheus');
const run = promisify(execFile);

describe('metrics', () => {
  let server: TestServer;
  let metricsAddress: string;
  before(async () => {
    server = await startTestServer('pglite', { METRICS_PORT: '0' });
    metricsAddress = server.server.metricsAddress!;
  });
  after(() => server?.close());

  const authn = (username: string, password: string) =>
    fetch(`${server.baseUrl}/api/v1/authn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });

  it('are served on their own port, on loopback by default, and never on the public one', async () => {
    assert.match(metricsAddress, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(new URL(metricsAddress).port, new URL(server.baseUrl).port);
    const publicAnswer = await fetch(`${server.baseUrl}/metrics`);
    assert.equal(publicAnswer.status, 404);
    assert.doesNotMatch(await publicAnswer.text(), /portal_http_requests_total/);
    assert.equal((await fetch(`${metricsAddress}/other`)).status, 404);
    const answer = await fetch(`${metricsAddress}/metrics`);
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  });

  it('count requests by route template and status, never by the URL asked for', async () => {
    const loanId = randomUUID();
    assert.equal((await fetch(`${server.baseUrl}/healthz`)).status, 200);
    assert.equal((await fetch(`${server.baseUrl}/api/borrower/loans/${loanId}`)).status, 401);
    assert.equal((await fetch(`${server.baseUrl}/api/no-such-thing/${randomUUID()}`)).status, 404);
    assert.equal((await fetch(`${server.baseUrl}/api/no-such-thing/${randomUUID()}`)).status, 404);

    const text = await (await fetch(`${metricsAddress}/metrics`)).text();
    assert.ok(!text.includes(loanId), 'no requested URL becomes a label');
    const samples = await scrape(metricsAddress);
    const requests = (route: string, status: string) =>
      sampleValue(samples, 'portal_http_requests_total', { method: 'GET', route, status });
    assert.equal(requests('/healthz', '200'), 1);
    assert.equal(requests('/api/borrower/loans/:loanId', '401'), 1);
    // Every 404 without a route shares one label.
    assert.equal(requests('unmatched', '404'), 3); // with /metrics on the public port above
    const latency = sampleValue(samples, 'portal_http_request_duration_seconds_count', {
      method: 'GET',
      route: '/healthz',
    });
    assert.equal(latency, 1);
  });

  it('count sign-ins by method and outcome, lockouts, the rate limit and sessions begun', async () => {
    const login = `metrics-${randomUUID()}@example.com`;
    const password = 'Metrics-Pass-42';
    await addBorrower(server, { login, password, firstName: 'Meta', lastName: 'Counter' });
    const { idToken } = await signInThroughIdp(server.baseUrl, { username: login, password });
    assert.equal(
      (await post(server.baseUrl, authEndpoints.tokenExchange.path, { token: idToken })).status,
      200,
    );
    assert.equal((await authn(`nobody-${randomUUID()}@example.com`, 'Whatever-1')).status, 401);
    // Wrong passwords from one network: the tenth locks the account for it; the limit of 30 a minute
    // (the successful sign-in and the unknown login above among them) answers the rest 429.
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 29; attempt += 1)
      statuses.push((await authn(login, 'Wrong-Pass-1')).status);
    assert.deepEqual(
      statuses,
      [...Array<number>(28).fill(401), 429],
      'locked sign-ins are refused like wrong ones',
    );

    const samples = await scrape(metricsAddress);
    const signIns = (outcome: string) =>
      sampleValue(samples, 'idp_sign_ins_total', { method: 'password', outcome });
    assert.equal(signIns('success'), 1);
    assert.equal(signIns('unknown_login'), 1);
    assert.equal(signIns('wrong_password'), 10);
    assert.equal(signIns('locked'), 18);
    assert.equal(sampleValue(samples, 'idp_lockouts_total', { scope: 'network' }), 1);
    assert.equal(sampleValue(samples, 'portal_sessions_started_total', { method: 'password' }), 1);
    const limited = sampleValue(samples, 'portal_http_requests_total', {
      method: 'POST',
      route: '/api/v1/authn',
      status: '429',
    });
    assert.equal(limited, 1);
    assert.ok((sampleValue(samples, 'idp_password_check_wait_seconds_count') ?? 0) >= 30);
    assert.equal(sampleValue(samples, 'idp_password_check_queue_depth'), 0);
  });

  it('watch the outbox, readiness and the process', async () => {
    assert.equal((await fetch(`${server.baseUrl}/readyz`)).status, 200);
    const samples = await scrape(metricsAddress);
    assert.equal(sampleValue(samples, 'portal_ready'), 1);
    assert.equal(sampleValue(samples, 'portal_readiness_changes_total'), 0);
    assert.equal(typeof sampleValue(samples, 'portal_mail_outbox_messages', { status: 'pending' }), 'number');
    assert.equal(typeof sampleValue(samples, 'portal_mail_outbox_oldest_due_seconds'), 'number');
    assert.equal(typeof sampleValue(samples, 'nodejs_eventloop_lag_seconds'), 'number');
    assert.equal(typeof sampleValue(samples, 'process_cpu_seconds_total'), 'number');
    // PGlite has no pool of connections nor a LISTEN connection: those are PostgreSQL's.
    assert.equal(sampleValue(samples, 'portal_db_pool_connections_in_use'), undefined);
  });

  it('are scraped by a real Prometheus, which loads the alert rules', async () => {
    const prometheus = await startPrometheus(metricsAddress, [path.join(RULES, 'alerts.yml')]);
    try {
      // After the second scrape has begun, the first is stored.
      await prometheus.scrapes(2);
      const targets = (await (await fetch(`${prometheus.url}/api/v1/targets`)).json()) as {
        data: { activeTargets: { health: string; lastError: string }[] };
      };
      assert.deepEqual(
        targets.data.activeTargets.map((t) => [t.health, t.lastError]),
        [['up', '']],
      );
      const query = encodeURIComponent('portal_http_requests_total{route="/healthz",status="200"}');
      const answer = (await (await fetch(`${prometheus.url}/api/v1/query?query=${query}`)).json()) as {
        data: { result: { metric: Record<string, string>; value: [number, string] }[] };
      };
      assert.deepEqual(
        answer.data.result.map((r) => [r.metric.job, r.value[1]]),
        [['portal', '1']],
      );
      const rules = (await (await fetch(`${prometheus.url}/api/v1/rules`)).json()) as {
        data: { groups: { rules: { name: string; health: string }[] }[] };
      };
      const loaded = rules.data.groups.flatMap((g) => g.rules);
      assert.ok(loaded.some((r) => r.name === 'PortalErrorRatioHigh'));
    } finally {
      await prometheus.close();
    }
  });
});

describe('alert rules', () => {
  it('are valid (promtool check rules)', async () => {
    const { stdout } = await run(process.env.PROMTOOL_PATH!, [
      'check',
      'rules',
      path.join(RULES, 'alerts.yml'),
    ]);
    assert.match(stdout, /SUCCESS: \d+ rules found/);
  });

  it('fire when they should and only then (promtool test rules)', async () => {
    const { stdout } = await run(process.env.PROMTOOL_PATH!, ['test', 'rules', 'alerts.test.yml'], {
      cwd: RULES,
    });
    assert.match(stdout, /SUCCESS/);
  });
});

describe(
  'metrics on PostgreSQL',
  { skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL' },
  () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer('postgres', { METRICS_PORT: '0' });
    });
    after(() => server?.close());

    it("watch the pool's connections and the LISTEN connection", async () => {
      const address = server.server.metricsAddress!;
      // The LISTEN connection opens after start-up: scrape until it says so (each scrape a request).
      let samples = await scrape(address);
      for (let scrapes = 1; sampleValue(samples, 'portal_notification_listener_up') !== 1; scrapes += 1) {
        assert.ok(scrapes < 500, 'the LISTEN connection came up');
        samples = await scrape(address);
      }
      const { maxConnections } = server.config.database as { maxConnections?: number };
      assert.equal(sampleValue(samples, 'portal_db_pool_connections_max'), maxConnections ?? 10);
      assert.equal(sampleValue(samples, 'portal_db_pool_waiting'), 0);
      assert.equal(typeof sampleValue(samples, 'portal_db_pool_connections_in_use'), 'number');
    });
  },
);
