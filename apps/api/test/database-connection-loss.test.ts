import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { authEndpoints, loanEndpoints } from '@customer-core/contracts';
import { createPostgresDatabase, type PostgresDatabase } from '@customer-core/database/testing';
import { DEMO_BORROWER } from '../src/loans/demo-borrower.js';
import { silentSignInRequest } from '../testing/index.js';
import { startChildServer, waitUntilReady, type ChildServer } from './support/child-server.js';

// PostgreSQL drops every connection of the portal's database (a failover, an administrator's
// pg_terminate_backend) while two instances serve real requests: both keep running, a request that
// loses its connection gets a clean 503, and the next ones are served on fresh connections.

const KILLS = 10;

describe(
  'the database drops every connection under load',
  {
    skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL (two instances on one PostgreSQL)',
    // A safety net, not a timing assertion: a server that never becomes ready would otherwise wait forever.
    timeout: 180_000,
  },
  () => {
    let database: PostgresDatabase;
    let dataDir: string;
    let admin: pg.Client;
    const servers: ChildServer[] = [];

    before(async () => {
      database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!, 'customer_core_test');
      dataDir = await mkdtemp(path.join(tmpdir(), 'customer-core-connection-loss-'));
      // Each sign-in comes from an address of its own: the per-network limit of sign-ins (shared by the
      // instances) is not what this test is about.
      const env = { DATABASE_URL: database.url, DATA_DIR: dataDir, TRUST_PROXY: 'true' };
      servers.push(await startChildServer(env)); // migrates and seeds first
      servers.push(await startChildServer(env));
      admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
    });
    after(async () => {
      await Promise.all(servers.map((server) => server.stop()));
      await admin?.end();
      await database?.drop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it(`survives ${KILLS} kills of all its connections: no exit, no 5xx but 503, full service after`, async () => {
      const tokens = await Promise.all(servers.map((server) => signIn(server.url, () => {})));
      const statuses: Array<{ route: string; status: number }> = [];
      const unreachable: string[] = [];
      const record = (route: string) => (status: number) => void statuses.push({ route, status });

      let loading = true;
      const lightLoad = async (server: ChildServer, token: string) => {
        while (loading) {
          await Promise.all([
            send(server.url, 'POST', authEndpoints.validate.path, { body: { access_token: token } }).then(
              record('validate'),
            ),
            send(server.url, 'GET', authEndpoints.publicKeys.path).then(record('public keys')),
            send(server.url, 'GET', loanEndpoints.loans.path, { token }).then(record('borrower loans')),
          ]).catch((error: Error) => unreachable.push(`${server.url}: ${error.message}`));
        }
      };
      const signInLoad = async (server: ChildServer) => {
        while (loading) {
          await signIn(server.url, (route, status) => record(route)(status)).catch((error: Error) =>
            unreachable.push(`${server.url}: ${error.message}`),
          );
        }
      };
      const load = servers.flatMap((server, i) => [
        lightLoad(server, tokens[i]!),
        lightLoad(server, tokens[i]!),
        signInLoad(server),
      ]);

      /** Resolves once `count` more answers have come in (the load runs on). */
      const moreAnswers = async (count: number) => {
        const target = statuses.length + count;
        while (statuses.length < target && unreachable.length === 0 && servers.every((s) => !s.exited()))
          await new Promise((resolve) => setImmediate(resolve));
      };

      let killed = 0;
      try {
        for (let kill = 1; kill <= KILLS; kill += 1) {
          await moreAnswers(30);
          const { rowCount } = await admin.query(
            'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
            [database.name],
          );
          killed += rowCount ?? 0;
          await moreAnswers(30);
          for (const server of servers) await waitUntilReady(server);
        }
      } finally {
        loading = false;
        await Promise.all(load);
      }

      const exits = servers.map((server) => server.exited()).filter(Boolean);
      const unavailable = statuses.filter((s) => s.status === 503).length;
      const otherServerErrors = statuses.filter((s) => s.status >= 500 && s.status !== 503);
      console.log(
        `  ${KILLS} kills (${killed} connections terminated), ${exits.length} process exits; ` +
          `${statuses.length} requests, ${unavailable} answered 503, ${otherServerErrors.length} other 5xx`,
      );
      assert.deepEqual(exits, [], `processes ended:\n${servers.flatMap((s) => s.output()).join('\n')}`);
      assert.deepEqual(unreachable, [], 'every request got an answer');
      assert.deepEqual(
        otherServerErrors,
        [],
        `no failure but 503 while connections drop:\n${servers.flatMap((s) => s.output()).join('\n')}`,
      );

      // Full service afterwards, on both instances.
      for (const [i, server] of servers.entries()) {
        await waitUntilReady(server);
        const token = await signIn(server.url, (route, status) => assert.equal(status, 200, route));
        assert.equal(
          await send(server.url, 'POST', authEndpoints.validate.path, { body: { access_token: tokens[i] } }),
          200,
        );
        assert.equal(await send(server.url, 'GET', loanEndpoints.loans.path, { token }), 200);
        assert.equal(await send(server.url, 'GET', authEndpoints.publicKeys.path), 200);
      }
    });
  },
);

async function send(
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  { token, body }: { token?: string; body?: unknown } = {},
): Promise<number> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

/**
 * The demo borrower's whole sign-in (authn, authorize with the session token, token endpoint, token
 * exchange), each step's status told; a product access token if every step succeeded, else ''.
 */
let signIns = 0;
async function signIn(baseUrl: string, told: (route: string, status: number) => void): Promise<string> {
  signIns += 1;
  const authn = await fetch(`${baseUrl}/api/v1/authn`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'x-forwarded-for': `198.51.100.${signIns % 250}`,
    },
    body: JSON.stringify({ username: DEMO_BORROWER.login, password: DEMO_BORROWER.password }),
  });
  told('authn', authn.status);
  const { sessionToken } = (await authn.json()) as { sessionToken?: string };
  if (!sessionToken) return '';

  const { url: authorizeUrl, verifier, redirectUri } = silentSignInRequest(baseUrl, sessionToken);
  const authorize = await fetch(authorizeUrl, { headers: { origin: baseUrl } });
  told('authorize', authorize.status);
  const code = /"code"\s*:\s*"([^"]+)"/.exec(await authorize.text())?.[1];
  if (!code) return '';

  const token = await fetch(`${baseUrl}/oauth2/default/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: 'customer-portal',
      redirect_uri: redirectUri,
      grant_type: 'authorization_code',
      code_verifier: verifier,
      code,
    }),
  });
  told('idp token', token.status);
  const { id_token: idToken } = (await token.json()) as { id_token?: string };
  if (!idToken) return '';

  const exchange = await fetch(`${baseUrl}${authEndpoints.tokenExchange.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: idToken }),
  });
  told('token exchange', exchange.status);
  const { access_token: accessToken } = (await exchange.json()) as { access_token?: string };
  return accessToken ?? '';
}
