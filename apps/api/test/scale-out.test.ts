import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { authEndpoints } from '@customer-core/contracts';
import { untilAfter, type TestServer } from '../testing/index.js';
import { createUser, mailFor } from './support/links.js';
import { demoAccessToken, json, post } from './support/session.js';
import { startTwoInstances, type TwoInstances } from './support/two-instances.js';

// Two instances behind one public origin, sharing one PostgreSQL and nothing else: what one does,
// the other honours. (PGlite is a single-process database, so this runs with TEST_DATABASE_URL only.)

describe(
  'two instances sharing PostgreSQL',
  { skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL' },
  () => {
    let a: TestServer;
    let bUrl: string;
    let instances: TwoInstances | undefined;

    before(async () => {
      instances = await startTwoInstances();
      ({ a, bUrl } = instances);
    });
    after(() => instances?.close());

    it('publishes the same keys from both instances', async () => {
      const keysOf = async (url: string): Promise<unknown> =>
        (await fetch(`${url}${authEndpoints.publicKeys.path}`)).json();
      assert.deepEqual(await keysOf(bUrl), await keysOf(a.baseUrl));
      const idpKeys = async (url: string): Promise<unknown> =>
        (await fetch(`${url}/oauth2/default/v1/keys`)).json();
      assert.deepEqual(await idpKeys(bUrl), await idpKeys(a.baseUrl));
    });

    const validate = async (url: string, token: string) =>
      json(await post(url, authEndpoints.validate.path, { access_token: token }));
    const refresh = async (url: string, token: string) =>
      json<{ access_token: string; reason?: string }>(
        await post(url, authEndpoints.tokenRefresh.path, { token }),
      );

    it('a borrower signed in through A is served by B: refresh, validate, profile', async () => {
      const token = await demoAccessToken(a.baseUrl);
      const profileOn = (url: string, bearer: string) =>
        fetch(`${url}${authEndpoints.profile.path}`, { headers: { authorization: `Bearer ${bearer}` } });
      assert.equal((await profileOn(bUrl, token)).status, 200);
      const refreshed = await refresh(bUrl, token);
      assert.equal(refreshed.status, 200);
      const next = refreshed.body.access_token;
      assert.equal((await validate(bUrl, next)).status, 200);
      assert.equal((await profileOn(bUrl, next)).status, 200);
      // The refreshed token is superseded on B at once, and on A as soon as A hears of it.
      assert.equal((await validate(bUrl, token)).body.reason, 'superseded');
      await untilAfter(
        'A hears',
        a.server.revocations.afterChange,
        async () => (await validate(a.baseUrl, token)).body.reason === 'superseded',
      );
      assert.equal((await validate(a.baseUrl, next)).status, 200);
    });

    it('rotated on A, replayed on B: the reuse is caught and the family revoked on both', async () => {
      const token = await demoAccessToken(a.baseUrl);
      const newest = (await refresh(a.baseUrl, token)).body.access_token;
      // At once, before B may have heard of the rotation: the database has the final word.
      const replay = await refresh(bUrl, token);
      assert.equal(replay.status, 401);
      assert.equal(replay.body.reason, 'revoked');
      assert.equal((await validate(bUrl, newest)).body.reason, 'revoked');
      await untilAfter(
        'A hears',
        a.server.revocations.afterChange,
        async () => (await validate(a.baseUrl, newest)).body.reason === 'revoked',
      );
      assert.equal((await refresh(a.baseUrl, newest)).body.reason, 'revoked');
      assert.equal((await refresh(bUrl, newest)).body.reason, 'revoked');
    });

    it('concurrent refreshes of one token on both instances: exactly one succeeds', async () => {
      const token = await demoAccessToken(a.baseUrl);
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => refresh(i % 2 === 0 ? a.baseUrl : bUrl, token)),
      );
      assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, ...Array<number>(11).fill(401)]);
    });

    it('a sign-out through B is refused afterwards by A', async () => {
      const token = await demoAccessToken(a.baseUrl);
      assert.equal((await validate(a.baseUrl, token)).status, 200);
      assert.equal((await post(bUrl, authEndpoints.logout.path, { access_token: token })).status, 200);
      // At once, before A may have heard: the database has the final word on a refresh.
      const refreshOnA = await refresh(a.baseUrl, token);
      assert.equal(refreshOnA.status, 401);
      assert.equal(refreshOnA.body.reason, 'revoked');
      // A check answers from what A holds in memory: refused as soon as A hears.
      await untilAfter(
        'A hears',
        a.server.revocations.afterChange,
        async () => (await validate(a.baseUrl, token)).body.reason === 'revoked',
      );
    });

    it('counts requests for e-mailed links in the database: what A counted, B honours', async () => {
      const user = await createUser(a);
      // Both instances see the same client (no proxy here): its limit per address is 3.
      for (const base of [a.baseUrl, bUrl, a.baseUrl, bUrl]) {
        assert.equal((await post(base, authEndpoints.passwordReset.path, { email: user.login })).status, 200);
      }
      const sent = await a.server.db
        .selectFrom('mail_outbox')
        .select('id')
        .where('recipient', '=', user.login)
        .execute();
      assert.equal(sent.length, 3);
      await mailFor(a.baseUrl, user.login, 3);
    });

    it('stopping A under load loses no session: B keeps serving every borrower signed in through A', async () => {
      // One sign-in per load loop: each loop refreshes its own token and carries on with the new one
      // (refresh spends the token it is given).
      const tokens = await Promise.all(Array.from({ length: 8 }, () => demoAccessToken(a.baseUrl)));
      // A status, or 'unreachable' for a connection the stopping instance closed before taking the request
      // (a load balancer retries those elsewhere).
      const outcomes = { a: [] as Array<number | 'unreachable'>, b: [] as Array<number | 'unreachable'> };
      // Each outcome is an event the waits below check again after.
      const progress = new EventEmitter();
      const record = (into: Array<number | 'unreachable'>, outcome: number | 'unreachable') => {
        into.push(outcome);
        progress.emit('outcome');
      };
      const nextOutcome = () => once(progress, 'outcome');
      let loading = true;

      const loadOn = async (url: string, slot: number, into: Array<number | 'unreachable'>) => {
        for (let i = 0; loading; i += 1) {
          const token = tokens[slot]!;
          if (i % 2 === 0) {
            const call = post(url, authEndpoints.validate.path, { access_token: token });
            record(into, await call.then((r) => r.status).catch(() => 'unreachable' as const));
            continue;
          }
          const answer = await refresh(url, token).catch(() => 'unreachable' as const);
          if (answer === 'unreachable') record(into, answer);
          else {
            if (answer.status === 200) tokens[slot] = answer.body.access_token;
            record(into, answer.status);
          }
        }
      };
      const load = Promise.all([
        ...Array.from({ length: 4 }, (_, slot) => loadOn(bUrl, slot, outcomes.b)),
        ...Array.from({ length: 4 }, (_, slot) => loadOn(a.baseUrl, 4 + slot, outcomes.a)),
      ]);
      // Stopped once it is under load (however slow this machine is), while the load goes on.
      await untilAfter('A under load', nextOutcome, () => outcomes.a.filter((o) => o === 200).length > 10);
      const stopped = Date.now();
      await a.server.close(); // graceful: requests A took are answered, then it ends
      assert.ok(Date.now() - stopped < 5000, 'A stops promptly, not after keep-alive timeouts');
      const servedBefore = outcomes.b.length;
      await untilAfter(
        'B serving on after A stopped',
        nextOutcome,
        () => outcomes.b.length > servedBefore + 20,
      );
      loading = false;
      await load;

      assert.deepEqual(
        outcomes.a.filter((o) => o !== 200 && o !== 503 && o !== 'unreachable'),
        [],
        'A answered every request it took (503 while closing, nothing else)',
      );
      assert.deepEqual([...new Set(outcomes.b)], [200], 'B refused nothing');
      // Every loop's latest token is good on B: A answered each refresh it took, so none was spent
      // without its loop receiving the new token.
      for (const token of tokens) {
        assert.equal((await post(bUrl, authEndpoints.validate.path, { access_token: token })).status, 200);
      }
    });
  },
);
