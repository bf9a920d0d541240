import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiPaths } from '@customer-core/contracts';
import { createTestDatabase, type TestDatabase } from '@customer-core/database/testing';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { demoAccessToken, json, post } from './support/session.js';

// Two instances behind one public origin, sharing one PostgreSQL and nothing else: what one does,
// the other honours. (PGlite is a single-process database, so this runs with TEST_DATABASE_URL only.)

describe(
  'two instances sharing PostgreSQL',
  { skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL' },
  () => {
    let database: TestDatabase;
    let a: TestServer;
    let b: TestServer;
    /** Instance B's own address; the public origin (issuer, token issuer) is A's, as behind a load balancer. */
    let bUrl: string;

    before(async () => {
      database = await createTestDatabase('postgres');
      a = await startTestServer('postgres', {}, { database });
      // Started while A runs: B must agree on migrations, signing keys and IdP keys rather than make its own.
      b = await startTestServer('postgres', { PUBLIC_URL: a.baseUrl }, { database });
      bUrl = `http://127.0.0.1:${new URL(b.server.address).port}`;
    });
    after(async () => {
      await b?.close();
      await a?.close();
      await database?.drop();
    });

    it('publishes the same keys from both instances', async () => {
      const keysOf = async (url: string) => (await fetch(`${url}${apiPaths.auth.publicKeys}`)).json();
      assert.deepEqual(await keysOf(bUrl), await keysOf(a.baseUrl));
      const idpKeys = async (url: string) => (await fetch(`${url}/oauth2/default/v1/keys`)).json();
      assert.deepEqual(await idpKeys(bUrl), await idpKeys(a.baseUrl));
    });

    it('a borrower signed in through A is served by B: refresh, validate, profile', async () => {
      const token = await demoAccessToken(a.baseUrl);
      const refreshed = await json<{ access_token: string }>(
        await post(bUrl, apiPaths.auth.tokenRefresh, { token }),
      );
      assert.equal(refreshed.status, 200);
      assert.equal(
        (await post(bUrl, apiPaths.auth.validate, { access_token: refreshed.body.access_token })).status,
        200,
      );
      const profile = await fetch(`${bUrl}${apiPaths.auth.profile}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(profile.status, 200);
    });

    it('a sign-out through B is refused afterwards by A', async () => {
      const token = await demoAccessToken(a.baseUrl);
      assert.equal((await post(a.baseUrl, apiPaths.auth.validate, { access_token: token })).status, 200);
      assert.equal((await post(bUrl, apiPaths.auth.logout, { access_token: token })).status, 200);
      const onA = await json(await post(a.baseUrl, apiPaths.auth.validate, { access_token: token }));
      assert.equal(onA.status, 401);
      assert.equal(onA.body.reason, 'revoked');
      assert.equal((await post(a.baseUrl, apiPaths.auth.tokenRefresh, { token })).status, 401);
    });

    it('stopping A under load loses no session: B keeps serving every borrower signed in through A', async () => {
      const tokens = await Promise.all(Array.from({ length: 5 }, () => demoAccessToken(a.baseUrl)));
      // A status, or 'unreachable' for a connection the stopping instance closed before taking the request
      // (a load balancer retries those elsewhere).
      const outcomes = { a: [] as Array<number | 'unreachable'>, b: [] as Array<number | 'unreachable'> };
      const deadline = Date.now() + 3000;

      const loadOn = async (url: string, into: Array<number | 'unreachable'>) => {
        for (let i = 0; Date.now() < deadline; i += 1) {
          const token = tokens[i % tokens.length]!;
          const call =
            i % 2 === 0
              ? post(url, apiPaths.auth.validate, { access_token: token })
              : post(url, apiPaths.auth.tokenRefresh, { token });
          into.push(await call.then((r) => r.status).catch(() => 'unreachable' as const));
        }
      };
      const load = Promise.all([
        ...Array.from({ length: 4 }, () => loadOn(bUrl, outcomes.b)),
        ...Array.from({ length: 4 }, () => loadOn(a.baseUrl, outcomes.a)),
      ]);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const stopped = Date.now();
      await a.server.close(); // graceful: requests A took are answered, then it ends
      assert.ok(Date.now() - stopped < 5000, 'A stops promptly, not after keep-alive timeouts');
      await load;

      const answeredByA = outcomes.a.filter((o) => o === 200).length;
      assert.ok(answeredByA > 10, 'A was under load when it stopped');
      assert.deepEqual(
        outcomes.a.filter((o) => o !== 200 && o !== 503 && o !== 'unreachable'),
        [],
        'A answered every request it took (503 while closing, nothing else)',
      );
      assert.ok(outcomes.b.length > 50, 'B served throughout');
      assert.deepEqual([...new Set(outcomes.b)], [200], 'B refused nothing');
      for (const token of tokens) {
        assert.equal((await post(bUrl, apiPaths.auth.validate, { access_token: token })).status, 200);
      }
    });
  },
);
