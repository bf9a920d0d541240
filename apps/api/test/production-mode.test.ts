import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, TEST_ACH_SETTINGS, type TestServer } from '../testing/index.js';

// Production needs PostgreSQL (the configuration refuses anything else), so this runs with TEST_DATABASE_URL.
describe('production mode', { skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL' }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('postgres', {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://portal.lender.example',
      // Required in production; the test database replaces it below.
      DATABASE_URL: process.env.TEST_DATABASE_URL!,
      // Required in production; these tests send no mail (mail-dev-mailbox.test.ts covers delivery).
      SMTP_URL: 'smtp://127.0.0.1:2525',
      ERROR_REPORTING_DSN: 'https://public-key@o1.ingest.reports.example/42',
      PRODUCTION_HOST: 'portal.lender.example',
      ...TEST_ACH_SETTINGS,
    });
  });
  after(() => server?.close());

  const local = (path: string) => fetch(`http://127.0.0.1:${new URL(server.server.address).port}${path}`);

  it('sends HSTS and upgrades insecure requests', async () => {
    const response = await local('/auth/login');
    assert.match(
      response.headers.get('strict-transport-security') ?? '',
      /max-age=31536000; includeSubDomains/,
    );
    assert.match(response.headers.get('content-security-policy') ?? '', /upgrade-insecure-requests/);
  });

  it('lets the error-reporting client reach its DSN and run its replay worker, nothing more', async () => {
    const csp = (await local('/auth/login')).headers.get('content-security-policy') ?? '';
    assert.match(csp, /connect-src 'self' https:\/\/o1\.ingest\.reports\.example(;|$)/);
    assert.match(csp, /worker-src 'self' blob:/);
  });

  it('has no demo borrower', async () => {
    const authn = await fetch(`http://127.0.0.1:${new URL(server.server.address).port}/api/v1/authn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo@example.com', password: 'Demo-Borrower-1' }),
    });
    assert.equal(authn.status, 401);
  });
});

describe('production mode without a key for the secrets at rest', () => {
  it('refuses to start, naming SECRETS_KEYS', async () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    const exit = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--conditions=source', '--import', 'tsx', 'apps/api/src/main.ts'],
        {
          cwd: root,
          env: {
            PATH: process.env.PATH,
            NODE_ENV: 'production',
            PUBLIC_URL: 'https://portal.lender.example',
            DATABASE_URL: 'postgres://portal@db.internal/portal',
            SMTP_URL: 'smtp://relay.internal:587',
          },
        },
        (error, _stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stderr }),
      );
    });
    assert.equal(exit.code, 1, exit.stderr);
    assert.match(exit.stderr, /customer-core cannot start/);
    assert.match(exit.stderr, /SECRETS_KEYS: required in production/);
  });
});
