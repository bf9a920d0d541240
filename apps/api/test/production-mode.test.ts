import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/testing/index.js';

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
