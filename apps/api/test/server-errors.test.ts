import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { loanEndpoints } from '@customer-core/contracts';
import { createTestDatabase, type TestDatabase } from '@customer-core/database/testing';
import { startTestServer, type TestServer } from '../testing/index.js';
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
    assert.equal((await call(server.baseUrl, 'GET', loanEndpoints.loans.path, token)).status, 200);
    await server.server.db.destroy();

    const { status, body } = await call(server.baseUrl, 'GET', loanEndpoints.loans.path, token);
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

// The database becomes unreachable (its server restarts, the network drops), then comes back: a
// TCP relay in front of PostgreSQL cuts every connection and refuses new ones, then accepts again.

describe(
  'the database is unreachable for a while',
  { skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL (a PostgreSQL server to cut off)' },
  () => {
    let database: TestDatabase;
    let relay: Relay;
    let server: TestServer;

    before(async () => {
      database = await createTestDatabase('postgres');
      const { url, maxConnections } = database.location as { url: string; maxConnections: number };
      const target = new URL(url);
      relay = await startRelay(target.hostname, Number(target.port || 5432));
      target.host = `127.0.0.1:${relay.port}`;
      server = await startTestServer(
        'postgres',
        {},
        { database: { ...database, location: { kind: 'postgres', url: target.toString(), maxConnections } } },
      );
    });
    after(async () => {
      await relay?.resume();
      await server?.close();
      relay?.close();
      await database?.drop();
    });

    it('answers 503 with Retry-After, the generic message and the request id; then serves again', async () => {
      const token = await newBorrowerToken(server, `outage-${randomUUID()}@example.com`);
      assert.equal((await call(server.baseUrl, 'GET', loanEndpoints.loans.path, token)).status, 200);

      relay.cut();
      const response = await fetch(`${server.baseUrl}${loanEndpoints.loans.path}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(response.status, 503);
      assert.ok(Number(response.headers.get('retry-after')) > 0, 'Retry-After says when to try again');
      const body = (await response.json()) as Record<string, unknown>;
      assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'requestId']);
      assert.equal(body.error, 'service_unavailable');
      assert.equal(body.message, 'Something went wrong on our side. Please try again later.');
      assert.equal((await fetch(`${server.baseUrl}/readyz`)).status, 503, 'out of the load balancer');
      assert.equal((await fetch(`${server.baseUrl}/healthz`)).status, 200, 'the process lives on');

      await relay.resume();
      assert.equal((await fetch(`${server.baseUrl}/readyz`)).status, 200);
      assert.equal((await call(server.baseUrl, 'GET', loanEndpoints.loans.path, token)).status, 200);
    });
  },
);

interface Relay {
  port: number;
  /** Cuts every relayed connection and refuses new ones. */
  cut(): void;
  /** Accepts connections again, on the same port. */
  resume(): Promise<void>;
  close(): void;
}

async function startRelay(host: string, port: number): Promise<Relay> {
  const sockets = new Set<Socket>();
  let listener: Server | undefined;
  const listen = (on: number) =>
    new Promise<number>((resolve, reject) => {
      const current = createServer((client) => {
        const upstream = connect(port, host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {}); // the other side is destroyed with it
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      current.once('error', reject);
      current.listen(on, '127.0.0.1', () => {
        listener = current;
        resolve((current.address() as { port: number }).port);
      });
    });
  const relayPort = await listen(0);
  const close = () => {
    listener?.close();
    listener = undefined;
    for (const socket of sockets) socket.destroy();
  };
  return {
    port: relayPort,
    cut: close,
    resume: async () => {
      if (!listener) await listen(relayPort);
    },
    close,
  };
}
