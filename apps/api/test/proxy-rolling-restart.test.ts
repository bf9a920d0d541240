import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { Agent, request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { authEndpoints } from '@customer-core/contracts';
import { createTestDatabase, type TestDatabase } from '@customer-core/database/testing';
import {
  freePort,
  type IdpCall,
  signInThroughIdp,
  startTestServer,
  type TestServer,
  untilAfter,
} from '../testing/index.js';
import { createUser } from './support/links.js';
import { json, post } from './support/session.js';
import { startNginx, type NginxProxy } from './support/nginx-proxy.js';

// Two instances behind a real nginx running deploy/nginx/customer-core.conf (over TLS, on loopback),
// sharing one PostgreSQL: borrowers sign in, validate, refresh and sign out through it while each
// instance in turn stops (as on SIGTERM: it drains) and starts again on its port. Not one request
// fails, and every sign-out holds on both instances afterwards.

interface Answer {
  status: number;
  text(): Promise<string>;
}

describe(
  'two instances behind nginx, restarted in turn',
  {
    skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL (the instances share PostgreSQL)',
    timeout: 120_000, // a safety net, not a timing assertion
  },
  () => {
    let database: TestDatabase;
    let proxy: NginxProxy;
    let ports: [number, number];
    const instances: Array<TestServer | undefined> = [undefined, undefined];

    const startInstance = async (i: 0 | 1) => {
      instances[i] = await startTestServer(
        'postgres',
        { PORT: String(ports[i]), PUBLIC_URL: proxy.url, TRUST_PROXY: 'true' },
        { database },
      );
      return instances[i];
    };
    const direct = (i: 0 | 1) => `http://127.0.0.1:${ports[i]}`;

    before(async () => {
      database = await createTestDatabase('postgres');
      ports = [await freePort(), await freePort()];
      proxy = await startNginx(ports);
      await startInstance(0);
      await startInstance(1);
    });
    after(async () => {
      for (const instance of instances) await instance?.close();
      await proxy?.close();
      await database?.drop();
    });

    /**
     * A client of the proxy from its own loopback address (so nginx sees it as `from`), keeping its
     * connections open as a browser does.
     */
    const clientFrom = (from: string) => {
      const agent = new Agent({ keepAlive: true, ca: proxy.ca, localAddress: from });
      const call = (
        url: string | URL,
        init: { method?: string; headers?: Record<string, string>; body?: string } = {},
      ) =>
        new Promise<Answer>((resolve, reject) => {
          const outgoing = request(
            url,
            { method: init.method ?? 'GET', headers: init.headers, agent },
            (res) => {
              let body = '';
              res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
              res.once('end', () =>
                resolve({ status: res.statusCode ?? 0, text: () => Promise.resolve(body) }),
              );
              res.once('error', reject);
            },
          );
          outgoing.once('error', reject);
          outgoing.end(init.body);
        });
      const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        call(`${proxy.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        });
      return { call, postJson, close: () => agent.destroy() };
    };

    it('sees each client by its own address, never by the address a client claims', async () => {
      const user = await createUser(instances[0]!);
      const [attacker, borrower] = [clientFrom('127.0.0.2'), clientFrom('127.0.0.3')];
      const signIn = (client: typeof attacker, password: string, claimed: string) =>
        client.postJson('/api/v1/authn', { username: user.login, password }, { 'x-forwarded-for': claimed });
      // Ten wrong passwords from one network lock the account for that network only, whatever each
      // request claims to come from.
      for (let i = 1; i <= 10; i += 1)
        assert.equal((await signIn(attacker, 'Wrong-password-1', `198.51.100.${i}`)).status, 401);
      assert.equal(
        (await signIn(attacker, user.password, '198.51.100.99')).status,
        401,
        'locked for 127.0.0.2',
      );
      // Had the instances seen nginx's own address (or the claimed one), this would be refused too.
      assert.equal((await signIn(borrower, user.password, '127.0.0.2')).status, 200, 'open for 127.0.0.3');
      attacker.close();
      borrower.close();
    });

    it('loses no request and no sign-out while each instance restarts under load', async () => {
      // Under the identity provider's 30 passwords a minute from one client address, which a fast
      // machine's load would otherwise reach (each borrower has an address of its own).
      const SIGN_INS_PER_BORROWER = 20;
      const failures: string[] = [];
      const revoked: string[] = [];
      let succeeded = 0;
      // Each answer and each failure is an event the waits below check again after.
      const progress = new EventEmitter();
      const answered = () => once(progress, 'answer');
      const fail = (failure: string) => {
        failures.push(failure);
        progress.emit('answer');
      };
      let loading = true;

      /** One borrower's browser: signs in, then validates and refreshes, signing out and in again now and then. */
      const borrower = async (slot: number) => {
        // A borrower each: signing out ends the borrower's identity-provider sessions, and with them
        // another browser's sign-in between its password and its token exchange.
        const user = await createUser(instances[0]!);
        const credentials = { username: user.login, password: user.password };
        const client = clientFrom(`127.0.0.${10 + slot}`);
        const counted: IdpCall = async (url, init) => {
          const what = `${init?.method ?? 'GET'} ${new URL(url).pathname}`;
          const answer = await client.call(url, init).catch((error: Error) => {
            fail(`${what}: ${error.message}`);
            throw error;
          });
          if (answer.status >= 500) fail(`${what}: ${answer.status}`);
          else {
            succeeded += 1;
            progress.emit('answer');
          }
          return answer;
        };
        const call = async (path: string, body: unknown) => {
          const answer = await counted(`${proxy.url}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          const text = await answer.text();
          if (answer.status !== 200) fail(`POST ${path}: ${answer.status} ${text}`);
          return answer.status === 200 ? (JSON.parse(text) as Record<string, string>) : undefined;
        };
        const signIn = async (): Promise<string | undefined> => {
          const tokens = await signInThroughIdp(proxy.url, credentials, undefined, proxy.url, counted).catch(
            (error: Error) => fail(`sign-in: ${error.message}`),
          );
          if (!tokens) return undefined;
          return (await call(authEndpoints.tokenExchange.path, { token: tokens.idToken }))?.access_token;
        };
        let token = await signIn();
        let signIns = 1;
        // A failure ends the test's load (it has failed already): no spinning on a broken proxy.
        for (let n = 1; loading && failures.length === 0; n += 1) {
          if (!token) token = await signIn();
          else if (n % 10 === 0 && signIns < SIGN_INS_PER_BORROWER) {
            signIns += 1;
            if (await call(authEndpoints.logout.path, { access_token: token })) revoked.push(token);
            token = await signIn();
          } else if (n % 2 === 1) await call(authEndpoints.validate.path, { access_token: token });
          else token = (await call(authEndpoints.tokenRefresh.path, { token }))?.access_token;
        }
        client.close();
      };
      const servedSoFar = async (i: 0 | 1) => {
        const metric = instances[i]!.server.metrics.registry.getSingleMetric('portal_http_requests_total');
        return (await metric!.get()).values.reduce((sum, { value }) => sum + value, 0);
      };
      const stopOnFailure = () => {
        if (failures.length > 0) throw new Error(`requests failed:\n${failures.join('\n')}`);
        return false;
      };
      const moreServed = (count: number) => {
        const target = succeeded + count;
        return untilAfter(
          `${count} more requests served`,
          answered,
          () => stopOnFailure() || succeeded >= target,
        );
      };

      const load = Promise.all([0, 1, 2, 3].map(borrower));
      await moreServed(40);
      for (const i of [0, 1] as const) {
        await instances[i]!.close(); // as on SIGTERM: stops listening, finishes what it took
        instances[i] = undefined;
        await moreServed(20); // the other one serves alone
        await startInstance(i);
        // nginx tries it again once its fail_timeout has passed; the next restart waits for that.
        await untilAfter(
          `instance ${i} back behind nginx`,
          answered,
          async () => stopOnFailure() || (await servedSoFar(i)) > 10,
          30_000,
        );
      }
      await moreServed(20);
      loading = false;
      await load;

      assert.deepEqual(failures, [], 'no request failed');
      assert.ok(revoked.length >= 4, `borrowers signed out during the restarts (${revoked.length})`);
      for (const token of revoked)
        for (const i of [0, 1] as const) {
          const validated = await json(
            await post(direct(i), authEndpoints.validate.path, { access_token: token }),
          );
          assert.equal(validated.status, 401);
          assert.equal(validated.body.reason, 'revoked');
          assert.equal((await post(direct(i), authEndpoints.tokenRefresh.path, { token })).status, 401);
        }
    });
  },
);
