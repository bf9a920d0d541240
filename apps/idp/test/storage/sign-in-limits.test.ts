import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { isConnectionLoss } from '@customer-core/database';
import { testDatabaseKinds } from '@customer-core/database/testing';
import { race, racersOn, type ContractDatabase } from '@customer-core/database/testing/storage-contract';
import type { IdpDatabase } from '../../src/index.js';
import { createLoginThrottle, type LoginThrottleOptions } from '../../src/login-failure-repository.js';
import { passwordHasher } from '../../src/passwords.js';
import { purgeExpiredSignInState } from '../../src/purge-repository.js';
import { createUserRepository } from '../../src/user-repository.js';
import { TEST_PASSWORD_HASH_COST } from '../../testing/index.js';
import { databaseRequestCountStore } from '../../src/request-count-repository.js';
import { LOG_EVENT_TYPES } from '@customer-core/contracts/server';
import { createSecurityLogRepository } from '../../src/security-log-repository.js';
import { createSessionTokenRepository } from '../../src/session-token-repository.js';
import { secondFactorAsked } from '../../src/factors/factor-repository.js';
import { fromNow, newEmailFactor, newUser, openIdpStorage } from './support.js';

// What limits sign-ins, shared by every instance through the database: failures per network and per
// account, the tries at codes, the request counts of the rate limits, and the System Log they write.

const LIMITS: LoginThrottleOptions = {
  maxFailures: 3,
  lockoutSeconds: 900,
  accountMaxFailures: 5,
  accountQuietSeconds: 3600,
};

/** How many of `outcomes` have `key` true. */
const countTrue = <K extends string>(outcomes: Array<Record<K, boolean>>, key: K) =>
  outcomes.filter((outcome) => outcome[key]).length;

let networks = 0;
const newNetwork = () => `198.51.${Math.floor((networks += 1) / 250)}.${networks % 250}`;

for (const kind of testDatabaseKinds()) {
  const racers = racersOn(kind);
  describe(`sign-in limits (${kind})`, () => {
    let database: ContractDatabase<IdpDatabase>;
    before(async () => {
      database = await openIdpStorage(kind);
    });
    after(() => database?.close());

    /** Login throttles of two instances (on PostgreSQL, each with a pool of its own). */
    const twoInstances = (limits: LoginThrottleOptions) => [
      createLoginThrottle(database.db, limits),
      createLoginThrottle(database.another(), limits),
    ];

    describe('wrong passwords', () => {
      it('locks the account for the network its failures came from, not for another', async () => {
        const throttle = createLoginThrottle(database.db, LIMITS);
        const user = await newUser(database.db);
        const network = newNetwork();
        const outcomes = [];
        for (let i = 0; i < 3; i += 1) outcomes.push(await throttle.recordFailure(user.id, network));
        assert.deepEqual(
          outcomes.map((o) => o.lockedNow),
          [false, false, true],
        );
        assert.equal(await throttle.isLocked(user.id, network), true);
        assert.equal(await throttle.isLocked(user.id, newNetwork()), false);
        // Read with the account, by its login, as a password sign-in reads it (one statement).
        const users = createUserRepository(database.db, passwordHasher(TEST_PASSWORD_HASH_COST));
        const withLock = (login: string, from: string) =>
          users.findCredentialsAndLock(login, (id) => throttle.lockedNow(id, from), '');
        const found = await withLock(user.login.toUpperCase(), network);
        assert.equal(found.credentials?.user.id, user.id);
        assert.equal(found.locked, true);
        assert.equal((await withLock(user.login, newNetwork())).locked, false);
        assert.deepEqual(await withLock('nobody@example.com', network), {
          credentials: undefined,
          locked: false,
        });
        assert.equal(await throttle.recordSuccess(user.id, network), false, 'the lockout holds');

        // A lockout that has run out starts a fresh count.
        await database.db
          .updateTable('idp_login_failure')
          .set({ locked_until: fromNow(-1) })
          .where('user_id', '=', user.id)
          .execute();
        assert.equal(await throttle.isLocked(user.id, network), false);
        assert.equal((await throttle.recordFailure(user.id, network)).lockedNow, false);
        assert.equal(await throttle.recordSuccess(user.id, network), true);
        const streak = await database.db
          .selectFrom('idp_login_failure')
          .select('failures')
          .where('user_id', '=', user.id)
          .execute();
        assert.deepEqual(streak, [], 'a success ends the streak');
      });

      it('after the account’s ceiling from all networks together, every network is refused; refused tries count nothing', async () => {
        const throttle = createLoginThrottle(database.db, LIMITS);
        const user = await newUser(database.db);
        const outcomes = [];
        for (let i = 0; i < 5; i += 1) outcomes.push(await throttle.recordFailure(user.id, newNetwork()));
        assert.deepEqual(
          outcomes.map((o) => o.ceilingNow),
          [false, false, false, false, true],
        );
        assert.equal(await throttle.isLocked(user.id, newNetwork()), true);
        await throttle.recordFailure(user.id, newNetwork());
        const { failures } = await database.db
          .selectFrom('idp_account_failure')
          .select('failures')
          .where('user_id', '=', user.id)
          .executeTakeFirstOrThrow();
        assert.equal(failures, 5);
        assert.equal(await throttle.recordSuccess(user.id, newNetwork()), false);
      });

      it('a right password ends the streak and gets its session token in one statement, unless a lockout holds or a factor is asked', async () => {
        const throttle = createLoginThrottle(database.db, LIMITS);
        const sessionTokens = createSessionTokenRepository(database.db, 300);
        const user = await newUser(database.db);
        const network = newNetwork();
        const signIn = (from: string, policy: 'off' | 'optional' | 'required' = 'optional', email = true) => {
          const { streakEnded, locked } = throttle.passwordRight(user.id, from);
          return sessionTokens.issueAfterPassword(user.id, {
            alongside: streakEnded,
            locked,
            factorAsked: secondFactorAsked(user.id, policy, email),
          });
        };
        const tokens = () =>
          database.db
            .selectFrom('idp_session_token')
            .select('user_id')
            .where('user_id', '=', user.id)
            .execute();
        const streak = () =>
          database.db
            .selectFrom('idp_login_failure')
            .select('failures')
            .where('user_id', '=', user.id)
            .execute();

        await throttle.recordFailure(user.id, network);
        const issued = await signIn(network);
        assert.equal(issued.locked, false);
        assert.ok(issued.token && issued.token.expiresAt > new Date());
        assert.deepEqual(await streak(), [], 'the streak ended');
        assert.equal(
          (await sessionTokens.present(issued.token.sessionToken, 'idp-session'))?.userId,
          user.id,
        );

        // Asked for a second factor: no token, the streak ended all the same.
        assert.deepEqual(await signIn(network, 'required'), { locked: false });
        await newEmailFactor(database.db, user.id);
        await throttle.recordFailure(user.id, network);
        assert.deepEqual(await signIn(network), { locked: false }, 'an active factor');
        assert.deepEqual(await streak(), []);
        assert.equal(
          (await signIn(network, 'optional', false)).token !== undefined,
          true,
          'no mail, no e-mail factor',
        );
        assert.equal((await signIn(network, 'off')).token !== undefined, true, 'off: never asked');

        // Locked out from this network: no token, the lockout left in force.
        for (let i = 0; i < 3; i += 1) await throttle.recordFailure(user.id, network);
        assert.deepEqual(await signIn(network, 'off'), { locked: true });
        assert.equal((await streak()).length, 1, 'the lockout stays');
        assert.equal((await tokens()).length, 3);
      });

      it('an id that is no account’s counts nothing', async () => {
        const throttle = createLoginThrottle(database.db, LIMITS);
        const nobody = randomUUID();
        assert.deepEqual(await throttle.recordFailure(nobody, newNetwork()), {
          lockedNow: false,
          ceilingNow: false,
        });
        assert.equal(await throttle.isLocked(nobody, newNetwork()), false);
      });

      it(`of ${racers} wrong passwords at once from one network, exactly one starts the lockout`, async () => {
        const limits = { ...LIMITS, maxFailures: 10, accountMaxFailures: 1000 };
        const instances = twoInstances(limits);
        const user = await newUser(database.db);
        const network = newNetwork();
        const outcomes = await race(racers, (i) => instances[i % 2]!.recordFailure(user.id, network));
        assert.equal(countTrue(outcomes, 'lockedNow'), 1);
        const { failures } = await database.db
          .selectFrom('idp_login_failure')
          .select('failures')
          .where('user_id', '=', user.id)
          .executeTakeFirstOrThrow();
        assert.equal(failures, racers, 'each counted');
      });
    });

    describe('tries at codes', () => {
      it(`of ${racers} codes at once from one network, no more are checked than its allowance`, async () => {
        const limits = { ...LIMITS, maxFailures: 10, accountMaxFailures: 1000 };
        const instances = twoInstances(limits);
        const user = await newUser(database.db);
        const network = newNetwork();
        const tries = await race(racers, (i) => instances[i % 2]!.reserveCodeCheck(user.id, network));
        assert.equal(countTrue(tries, 'allowed'), 10);
        assert.equal(countTrue(tries, 'lockedNow'), 1);
        assert.equal(await instances[0]!.isLocked(user.id, network), true);
      });

      it(`of ${racers} codes at once from many networks, no more are checked than the account's ceiling`, async () => {
        const limits = { ...LIMITS, maxFailures: 10, accountMaxFailures: 7 };
        const instances = twoInstances(limits);
        const user = await newUser(database.db);
        const tries = await race(racers, (i) => instances[i % 2]!.reserveCodeCheck(user.id, newNetwork()));
        assert.equal(countTrue(tries, 'allowed'), 7);
        assert.equal(countTrue(tries, 'ceilingNow'), 1);
      });

      it('a right code gives its try back; a wrong one stays counted and is logged', async () => {
        const throttle = createLoginThrottle(database.db, LIMITS);
        const log = createSecurityLogRepository(database.db);
        const user = await newUser(database.db);
        const network = newNetwork();
        for (let i = 0; i < 5; i += 1) {
          assert.equal((await throttle.reserveCodeCheck(user.id, network)).allowed, true);
          await throttle.codeAccepted(user.id, network);
        }
        assert.equal(await throttle.isLocked(user.id, network), false, 'right codes cost nothing');
        const wrong = await throttle.reserveCodeCheck(user.id, network);
        await throttle.codeRefused(user.id, network, wrong);
        const events = await log.find({
          userIds: [user.id],
          since: new Date(Date.now() - 60_000),
          until: new Date(Date.now() + 60_000),
          descending: false,
          limit: 10,
        });
        assert.deepEqual(
          events.map((e) => [e.eventType, e.outcome, e.reason]),
          [[LOG_EVENT_TYPES.signIn, 'FAILURE', 'INVALID_CREDENTIALS']],
        );
      });

      if (kind === 'postgres') {
        it('a try whose connection is lost takes nothing from the allowance', async () => {
          const throttle = createLoginThrottle(database.db, LIMITS);
          const user = await newUser(database.db);
          const network = newNetwork();
          assert.equal((await throttle.reserveCodeCheck(user.id, network)).allowed, true);
          const error = await database.cutWhileWaiting(
            'select 1 from idp_login_failure where user_id = $1 for update',
            [user.id],
            () => throttle.reserveCodeCheck(user.id, network),
          );
          assert.equal(isConnectionLoss(error), true, String(error));
          const tries = [];
          for (let i = 0; i < 3; i += 1)
            tries.push((await throttle.reserveCodeCheck(user.id, network)).allowed);
          assert.deepEqual(tries, [true, true, false], 'one try was taken before');
        });
      }
    });

    describe('the System Log', () => {
      it('records each failure, and a lockout a millisecond after the failure that started it', async () => {
        const log = createSecurityLogRepository(database.db);
        const user = await newUser(database.db);
        const since = new Date(Date.now() - 1000);
        await log.recordFailure(user.id, '192.0.2.77', { lockedNow: false, userAgent: 'x'.repeat(600) });
        await log.recordFailure(user.id, '2001:db8:1:2:3:4:5:6', { lockedNow: true });
        await log.recordFailure(user.id, 'not an address', { lockedNow: false });
        await log.recordFailure(randomUUID(), '192.0.2.1', { lockedNow: false }); // no such user
        const query = {
          userIds: [user.id],
          since,
          until: new Date(Date.now() + 60_000),
          descending: false,
          limit: 10,
        };
        const events = await log.find(query);
        // Failures written within one millisecond come in the order of their random ids.
        assert.deepEqual(events.map((e) => [e.eventType, e.outcome, e.clientNetwork].join(' ')).sort(), [
          `${LOG_EVENT_TYPES.lock} SUCCESS 2001:db8:1:2::`,
          `${LOG_EVENT_TYPES.signIn} FAILURE `,
          `${LOG_EVENT_TYPES.signIn} FAILURE 192.0.2.0`,
          `${LOG_EVENT_TYPES.signIn} FAILURE 2001:db8:1:2::`,
        ]);
        const started = events.findIndex(
          (e) => e.eventType === LOG_EVENT_TYPES.signIn && e.clientNetwork === '2001:db8:1:2::',
        );
        const lock = events.findIndex((e) => e.eventType === LOG_EVENT_TYPES.lock);
        assert.ok(lock > started, 'the lockout after the failure that started it');
        assert.ok(events[lock]!.published > events[started]!.published);
        assert.equal(events.find((e) => e.clientNetwork === '192.0.2.0')!.userAgent?.length, 512);
        assert.deepEqual(
          (await log.find({ ...query, descending: true })).map((e) => e.id),
          events.map((e) => e.id).reverse(),
        );

        // Filters and pages.
        const locks = await log.find({ ...query, eventTypes: [LOG_EVENT_TYPES.lock], outcomes: ['SUCCESS'] });
        assert.deepEqual(
          locks.map((e) => e.id),
          [events[lock]!.id],
        );
        assert.deepEqual(await log.find({ ...query, eventTypes: [] }), []);
        assert.deepEqual(await log.find({ ...query, userIds: [] }), []);
        const page = await log.find({ ...query, limit: 2 });
        const next = await log.find({ ...query, after: { published: page[1]!.published, id: page[1]!.id } });
        assert.deepEqual(
          [...page, ...next].map((e) => e.id),
          events.map((e) => e.id),
        );
      });

      it(`${racers} failures logged at once are all kept`, async () => {
        const logs = [
          createSecurityLogRepository(database.db),
          createSecurityLogRepository(database.another()),
        ];
        const user = await newUser(database.db);
        await race(racers, (i) => logs[i % 2]!.recordFailure(user.id, newNetwork(), { lockedNow: false }));
        const events = await logs[0]!.find({
          userIds: [user.id],
          since: new Date(Date.now() - 60_000),
          until: new Date(Date.now() + 60_000),
          descending: true,
          limit: 100,
        });
        assert.equal(events.length, racers);
      });
    });

    describe('request counts of the rate limits', () => {
      const incr = (store: ReturnType<typeof databaseRequestCountStore>, key: string, windowMs: number) =>
        new Promise<{ current: number; ttl: number }>((resolve, reject) =>
          new store().incr(key, (error, result) => (error ? reject(error) : resolve(result!)), windowMs),
        );

      it(`${racers} requests at once on two instances each get a number of their own`, async () => {
        const stores = [
          databaseRequestCountStore(database.db),
          databaseRequestCountStore(database.another()),
        ];
        const key = randomUUID();
        const counted = await race(racers, (i) => incr(stores[i % 2]!, key, 60_000));
        assert.deepEqual(
          counted.map((c) => c.current).sort((a, b) => a - b),
          Array.from({ length: racers }, (_, i) => i + 1),
        );
        for (const { ttl } of counted) assert.ok(ttl > 0, 'within the window');
      });

      it('a window that has ended starts the count again', async () => {
        const store = databaseRequestCountStore(database.db);
        const key = randomUUID();
        await incr(store, key, 1000);
        await incr(store, key, 1000);
        await sql`update idp_request_count set window_started_at = now() - interval '2 seconds'
          where bucket = ${key}`.execute(database.db);
        assert.equal((await incr(store, key, 1000)).current, 1);
      });
    });

    describe('the purge', () => {
      it('forgets expired sign-in state and old counts and events, keeps the rest', async () => {
        const user = await newUser(database.db);
        const other = await newUser(database.db);
        const ago = (seconds: number) => fromNow(-seconds);
        await database.db
          .insertInto('idp_session_token')
          .values([
            { token_hash: `old-${user.id}`, user_id: user.id, expires_at: ago(1) },
            { token_hash: `live-${user.id}`, user_id: user.id, expires_at: fromNow(300) },
          ])
          .execute();
        await database.db
          .insertInto('idp_authn_transaction')
          .values([
            {
              state_token_hash: `old-${user.id}`,
              user_id: user.id,
              status: 'MFA_REQUIRED',
              expires_at: ago(1),
            },
            {
              state_token_hash: `live-${user.id}`,
              user_id: user.id,
              status: 'MFA_REQUIRED',
              expires_at: fromNow(300),
            },
          ])
          .execute();
        await database.db
          .insertInto('idp_webauthn_challenge')
          .values([
            { challenge: `old-${user.id}`, purpose: 'passkey', expires_at: ago(1) },
            { challenge: `live-${user.id}`, purpose: 'passkey', expires_at: fromNow(300) },
          ])
          .execute();
        await database.db
          .insertInto('idp_login_failure')
          .values([
            { user_id: user.id, client_address: 'quiet', failures: 2, last_failure_at: ago(2 * 86_400) },
            {
              user_id: user.id,
              client_address: 'locked',
              failures: 10,
              last_failure_at: ago(2 * 86_400),
              locked_until: fromNow(3600),
            },
            { user_id: user.id, client_address: 'recent', failures: 2, last_failure_at: ago(60) },
          ])
          .execute();
        await database.db
          .insertInto('idp_account_failure')
          .values([
            { user_id: user.id, failures: 3, last_failure_at: ago(2 * 86_400) },
            { user_id: other.id, failures: 3, last_failure_at: ago(60) },
          ])
          .execute();
        await database.db
          .insertInto('idp_security_event')
          .values([
            { user_id: user.id, event_type: 'old', outcome: 'FAILURE', published: ago(91 * 86_400) },
            { user_id: user.id, event_type: 'recent', outcome: 'FAILURE', published: ago(89 * 86_400) },
          ])
          .execute();
        await database.db
          .insertInto('idp_request_count')
          .values([
            { bucket: `old-${user.id}`, window_started_at: ago(2 * 86_400), requests: 3 },
            { bucket: `recent-${user.id}`, window_started_at: ago(60), requests: 3 },
          ])
          .execute();

        // Every instance runs it: at once too.
        await race(4, (i) => purgeExpiredSignInState(i % 2 ? database.another() : database.db));

        const left = async (query: Promise<Array<Record<string, unknown>>>) =>
          (await query).map((row) => Object.values(row)[0]).sort();
        const db = database.db;
        assert.deepEqual(
          await left(
            db.selectFrom('idp_session_token').select('token_hash').where('user_id', '=', user.id).execute(),
          ),
          [`live-${user.id}`],
        );
        assert.deepEqual(
          await left(
            db
              .selectFrom('idp_authn_transaction')
              .select('state_token_hash')
              .where('user_id', '=', user.id)
              .execute(),
          ),
          [`live-${user.id}`],
        );
        assert.deepEqual(
          await left(
            db
              .selectFrom('idp_webauthn_challenge')
              .select('challenge')
              .where('challenge', 'like', `%-${user.id}`)
              .execute(),
          ),
          [`live-${user.id}`],
        );
        assert.deepEqual(
          await left(
            db
              .selectFrom('idp_login_failure')
              .select('client_address')
              .where('user_id', '=', user.id)
              .execute(),
          ),
          ['locked', 'recent'],
        );
        assert.deepEqual(
          await left(
            db
              .selectFrom('idp_account_failure')
              .select('user_id')
              .where('user_id', 'in', [user.id, other.id])
              .execute(),
          ),
          [other.id],
        );
        assert.deepEqual(
          await left(
            db.selectFrom('idp_security_event').select('event_type').where('user_id', '=', user.id).execute(),
          ),
          ['recent'],
        );
        assert.deepEqual(
          await left(
            db
              .selectFrom('idp_request_count')
              .select('bucket')
              .where('bucket', 'like', `%-${user.id}`)
              .execute(),
          ),
          [`recent-${user.id}`],
        );
      });
    });
  });
}
