import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { apiPaths } from '@customer-core/contracts';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { call, newBorrowerToken } from './support/loans.js';

// A failure on the server's side, for real: the database goes away under a signed-in borrower.

describe('a failure on our side', () => {
  let server: TestServer;
  const logLines: string[] = [];

  before(async () => {
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => logLines.push(...chunk.toString().split('\n').filter(Boolean)));
    server = await startTestServer('pglite', { LOG_LEVEL: 'error' }, { logStream });
  });
  after(async () => {
    await server?.close().catch(() => {}); // its database is already gone
  });

  it('answers 500 with a generic message and the request id; the log has the cause under that id', async () => {
    const token = await newBorrowerToken(server, `failure-${randomUUID()}@example.com`);
    assert.equal((await call(server.baseUrl, 'GET', apiPaths.borrower.loans, token)).status, 200);
    await server.server.db.destroy();

    const { status, body } = await call(server.baseUrl, 'GET', apiPaths.borrower.loans, token);
    assert.equal(status, 500);
    assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'requestId']);
    assert.equal(body.error, 'internal_error');
    assert.equal(body.message, 'Something went wrong on our side. Please try again later.');
    const logged = logLines
      .map((line) => JSON.parse(line) as { reqId?: string; msg?: string; err?: { message?: string } })
      .find((line) => line.reqId === body.requestId && line.msg === 'request failed');
    assert.ok(logged?.err?.message, 'the cause is logged, for operators');
    assert.ok(!JSON.stringify(body).includes(logged.err.message), 'and only logged');

    const ready = await fetch(`${server.baseUrl}/readyz`);
    assert.equal(ready.status, 503, 'the load balancer is told to stop sending requests here');
  });
});
