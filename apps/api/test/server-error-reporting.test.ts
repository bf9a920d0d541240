import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { loanEndpoints } from '@customer-core/contracts';
import { startServerErrorReporting } from '../src/http/server-error-reporting.js';
import { startTestServer, type TestServer } from '../testing/index.js';
import { newBorrowerToken } from './support/loans.js';

// The server's unexpected errors go to the error-reporting service (Sentry) in production: the real
// SDK sends its envelope to a receiver of the test's, standing in for the service's ingest.

describe('server errors reported in production', () => {
  let ingest: Server;
  let server: TestServer;
  const envelopes: string[] = [];
  let received: () => void;
  const envelope = new Promise<void>((resolve) => (received = resolve));

  before(async () => {
    ingest = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        const gzipped = request.headers['content-encoding'] === 'gzip';
        envelopes.push(`${request.url}\n${(gzipped ? gunzipSync(body) : body).toString()}`);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        received();
      });
    });
    ingest.listen(0, '127.0.0.1');
    await once(ingest, 'listening');
    const { port } = ingest.address() as AddressInfo;
    server = await startTestServer(
      'pglite',
      {
        SERVER_ERROR_REPORTING_DSN: `http://publickey@127.0.0.1:${port}/7`,
        // Production never uses the dev mailbox; this test sends no mail.
        SMTP_URL: 'smtp://127.0.0.1:2525',
      },
      { asProduction: true },
    );
  });
  after(async () => {
    await server?.close().catch(() => {}); // its database is already gone
    ingest?.close();
  });

  it('sends a 500 with its request id, and nothing of the request', { timeout: 30_000 }, async () => {
    const token = await newBorrowerToken(server, `reported-${randomUUID()}@example.com`);
    await server.server.db.destroy(); // the next query fails: a fault of ours
    const secrets = { query: `code-${randomUUID()}`, cookie: `cookie-${randomUUID()}` };
    const response = await fetch(`${server.baseUrl}${loanEndpoints.loans.path}?code=${secrets.query}`, {
      headers: { authorization: `Bearer ${token}`, cookie: `sid=${secrets.cookie}` },
    });
    assert.equal(response.status, 500);
    const { requestId } = (await response.json()) as { requestId: string };

    await envelope;
    assert.equal(envelopes.length, 1);
    const [sent] = envelopes;
    assert.match(sent!, /^\/api\/7\/envelope\//);
    assert.match(sent!, /"type":"event"/);
    assert.ok(sent!.includes(`"request_id":"${requestId}"`), 'the request id is a tag');
    assert.match(sent!, /"route":"\/api\/borrower\/loans"/);
    assert.match(sent!, /"environment":"production"/);
    for (const secret of [token, secrets.query, secrets.cookie, token.split('.')[1]!]) {
      assert.ok(!sent!.includes(secret), 'no token, code or cookie leaves the server');
    }
    assert.doesNotMatch(sent!, /"request":|"headers":|"cookies":|"query_string":/);
  });
});

describe('server errors outside production', () => {
  it('are not reported, even with a DSN', async () => {
    const dsn = 'http://publickey@127.0.0.1:9/7';
    assert.equal(await startServerErrorReporting({ dsn, production: false, release: 'x' }), null);
    assert.equal(await startServerErrorReporting({ dsn: null, production: true, release: 'x' }), null);
  });
});
