import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authEndpoints } from '@customer-core/contracts';
import { OWASP_PASSWORD_HASH_COST } from '@customer-core/idp';
import { startTestServer, type TestServer } from '../testing/index.js';
import { DEMO_BORROWER } from '../src/loans/demo-borrower.js';
import { authn } from './support/links.js';
import { demoAccessToken, post } from './support/session.js';

// A flood of password sign-ins may use every core for argon2id, but not make everyone else wait:
// past the configured line of waiting password checks, sign-ins are refused at once (503, Okta's
// shape, Retry-After), and health checks, public keys and token validation keep answering.

// A short line, so that a flood arriving slowly (a loaded machine accepts connections slowly too)
// still fills it. Production's hashing cost, not the tests' cheap one: the line fills because each
// check holds a core as long as it does in production.
const QUEUE_DEPTH = 8;
const FLOOD = 120;

describe('a flood of sign-ins', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer(
      'pglite',
      { SIGN_IN_QUEUE_DEPTH: String(QUEUE_DEPTH), TRUST_PROXY: 'true' },
      { passwordHashCost: OWASP_PASSWORD_HASH_COST },
    );
  });
  after(async () => {
    await server?.close();
  });

  it('refuses sign-ins past the line at once, and the rest of the API answers while they wait', async () => {
    const token = await demoAccessToken(server.baseUrl);
    const events: string[] = [];
    let firstRefusal: () => void;
    const refused = new Promise<void>((resolve) => (firstRefusal = resolve));

    // Each from its own address, so the per-address limit is not what answers.
    const flood = Array.from({ length: FLOOD }, async (_, i) => {
      const address = `203.0.113.${i + 1}`;
      const response = await authn(server.baseUrl, `flood.${i}@example.com`, 'Wrong-password-1', address);
      const body = (await response.json()) as Record<string, unknown>;
      events.push(`authn ${response.status}`);
      if (response.status === 503) firstRefusal();
      return { response, body };
    });

    // The line is full once the first refusal comes back: the probes go out behind it.
    await Promise.race([refused, Promise.all(flood)]);
    const probes = [
      fetch(`${server.baseUrl}/healthz`),
      fetch(`${server.baseUrl}/readyz`),
      fetch(`${server.baseUrl}${authEndpoints.publicKeys.path}`),
      post(server.baseUrl, authEndpoints.validate.path, { access_token: token }),
    ].map(async (probe, i) => {
      const response = await probe;
      events.push(`probe ${response.status}`);
      return { i, status: response.status };
    });
    const probed = await Promise.all(probes);
    const answers = await Promise.all(flood);

    assert.deepEqual(
      probed.map((p) => p.status),
      [200, 200, 200, 200],
      'health, readiness, public keys, validate',
    );
    // Sign-ins that were waiting in line when the probes went out were answered after them.
    const lastProbe = events.lastIndexOf('probe 200');
    const checkedAfter = events.slice(lastProbe + 1).filter((e) => e === 'authn 401').length;
    assert.ok(checkedAfter > 0, `sign-ins still waiting when the probes were answered: ${events.join(', ')}`);

    const statuses = answers.map((a) => a.response.status);
    assert.deepEqual([...new Set(statuses)].sort(), [401, 503], 'checked (wrong password) or refused');
    const accepted = statuses.filter((s) => s === 401).length;
    assert.ok(accepted >= QUEUE_DEPTH, `${accepted} sign-ins were checked`);
    for (const { response, body } of answers.filter((a) => a.response.status === 503)) {
      assert.match(response.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.deepEqual(Object.keys(body).sort(), [
        'errorCauses',
        'errorCode',
        'errorId',
        'errorLink',
        'errorSummary',
      ]);
      assert.equal(body.errorCode, 'E0000009');
      assert.equal(body.errorLink, 'E0000009');
      assert.match(body.errorId as string, /^oae[\w-]+$/);
      assert.deepEqual(body.errorCauses, []);
    }

    // Once the flood has drained, sign-in works again.
    const signIn = await authn(server.baseUrl, DEMO_BORROWER.login, DEMO_BORROWER.password, '192.0.2.44');
    assert.equal(signIn.status, 200);
  });
});
