import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { authEndpoints } from '@customer-core/contracts';
import { createPostgresDatabase, type PostgresDatabase } from '@customer-core/database/testing';
import { DEMO_BORROWER } from '../src/loans/demo-borrower.js';
import { signInThroughIdp } from '../testing/index.js';
import { startChildServer, waitUntilReady, type ChildServer } from './support/child-server.js';

// SERVER_PROCESSES=2: two server processes share the port (node:cluster), each an instance of its own.
// Every request here opens a connection of its own, so the primary hands them out in turn, and the
// X-Request-Id each carries finds, in the JSON log, the process that answered it.

describe(
  'several server processes on one machine',
  {
    skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL (processes share PostgreSQL)',
    // A safety net, not a timing assertion: a log line that never comes would otherwise wait forever.
    timeout: 120_000,
  },
  () => {
    let database: PostgresDatabase;
    let dataDir: string;
    let server: ChildServer;

    before(async () => {
      database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!, 'customer_core_test');
      dataDir = await mkdtemp(path.join(tmpdir(), 'customer-core-processes-'));
      server = await startChildServer({
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        SERVER_PROCESSES: '2',
        // Debug: each process says when it heard a revocation notice.
        LOG_LEVEL: 'debug',
        LOG_FORMAT: 'json',
      });
      await server.printed(/"msg":"server processes listening"/);
    });
    after(async () => {
      await server?.stop();
      await database?.drop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    /** One request on a connection of its own: its status and the process that answered it. */
    const send = async (method: 'GET' | 'POST', route: string, body?: unknown) => {
      const id = randomUUID();
      const status = await new Promise<number>((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const outgoing = request(
          `${server.url}${route}`,
          {
            method,
            agent: false,
            headers: {
              'x-request-id': id,
              ...(payload ? { 'content-type': 'application/json' } : {}),
            },
          },
          (response) => {
            response.resume();
            response.once('end', () => resolve(response.statusCode ?? 0));
          },
        );
        outgoing.once('error', reject);
        outgoing.end(payload);
      });
      const line = await server.printed(new RegExp(`"reqId":"${id}".*"msg":"request completed"`));
      return { status, pid: (JSON.parse(line) as { pid: number }).pid };
    };

    it('answers from both processes, and both refuse a token once they hear of its sign-out', async () => {
      const health = await Promise.all(Array.from({ length: 6 }, () => send('GET', '/healthz')));
      assert.deepEqual(new Set(health.map((h) => h.status)), new Set([200]));
      const processes = new Set(health.map((h) => h.pid));
      assert.equal(processes.size, 2, 'two processes answered');
      assert.ok(!processes.has(server.pid), 'the primary itself serves no request');

      const { idToken } = await signInThroughIdp(server.url, {
        username: DEMO_BORROWER.login,
        password: DEMO_BORROWER.password,
      });
      const exchange = await fetch(`${server.url}${authEndpoints.tokenExchange.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: idToken }),
      });
      const { access_token: token } = (await exchange.json()) as { access_token: string };
      const validate = () => send('POST', authEndpoints.validate.path, { access_token: token });

      const before = await Promise.all(Array.from({ length: 4 }, validate));
      assert.deepEqual(new Set(before.map((v) => v.status)), new Set([200]));
      assert.equal(new Set(before.map((v) => v.pid)).size, 2, 'each process has the token verified');

      const logout = await fetch(`${server.url}${authEndpoints.logout.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ access_token: token }),
      });
      assert.equal(logout.status, 200);
      // The process that signed out refuses the token at once; the other from when its LISTEN
      // connection hands it the notice, moments after the commit (decision 0002).
      await Promise.all(
        [...processes].map((pid) =>
          server.printed(
            new RegExp(`"pid":${pid},.*"revocation":"session".*"msg":"revocation notice heard"`),
          ),
        ),
      );
      const afterLogout = await Promise.all(Array.from({ length: 4 }, validate));
      assert.deepEqual(new Set(afterLogout.map((v) => v.status)), new Set([401]));
      assert.equal(new Set(afterLogout.map((v) => v.pid)).size, 2, 'both processes refuse it');
    });

    it('replaces a process that dies, and serves on', async () => {
      const { pid } = await send('GET', '/healthz');
      const replaced = server.printed(
        new RegExp(`"worker":${pid}.*"msg":"server process ended; starting another"`),
      );
      process.kill(pid, 'SIGKILL');
      await replaced;
      await waitUntilReady(server);
      const answers = await Promise.all(Array.from({ length: 6 }, () => send('GET', '/healthz')));
      assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([200]));
      assert.ok(!answers.some((a) => a.pid === pid));
      assert.equal(server.exited(), undefined);
    });
  },
);
