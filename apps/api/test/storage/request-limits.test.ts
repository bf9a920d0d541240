import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { isConnectionLoss } from '@customer-core/database';
import { testDatabaseKinds } from '@customer-core/database/testing';
import {
  countOf,
  race,
  racersOn,
  type ContractDatabase,
} from '@customer-core/database/testing/storage-contract';
import type { ApiDatabase } from '../../src/db/schema.js';
import { networkOf } from '@customer-core/contracts/server';
import type { LinkRequestLimits } from '../../src/config/config.js';
import { requestCountRepository } from '../../src/email-links/request-count-repository.js';
import { linkRequestCounter } from '../../src/email-links/request-limits.js';
import { fromNow, openApiStorage } from './support.js';

// The limits on requests for e-mailed links, counted in the database that every instance shares.

const LIMITS: LinkRequestLimits = { perAddressAndClient: 3, perAddress: 5, perClient: 8, windowSeconds: 600 };

let clients = 0;
/** A client address of a network of its own. */
const newClient = () => `198.51.${Math.floor((clients += 1) / 250)}.${clients % 250}`;
const newAddress = () => `asker.${randomUUID()}@example.com`;

for (const kind of testDatabaseKinds()) {
  const racers = racersOn(kind);
  describe(`link request limits (${kind})`, () => {
    let database: ContractDatabase<ApiDatabase>;
    before(async () => {
      database = await openApiStorage(kind);
    });
    after(() => database?.close());

    /** `count` requests one after another; whether each was allowed. */
    async function ask(counter: ReturnType<typeof linkRequestCounter>, request: object, count: number) {
      const allowed: boolean[] = [];
      for (let i = 0; i < count; i += 1)
        allowed.push(await counter.allow(request as { email: string; client: string }));
      return allowed;
    }

    it('allows an address as often as one client may ask for it, then refuses; another client is not affected', async () => {
      const counter = linkRequestCounter(requestCountRepository(database.db), LIMITS, randomUUID());
      const email = newAddress();
      const client = newClient();
      assert.deepEqual(await ask(counter, { email, client }, 4), [true, true, true, false]);
      assert.equal(await counter.wouldAllow({ email, client }), false);
      assert.equal(await counter.allow({ email, client: newClient() }), true);
    });

    it('counts a client over every address, and an address over clients within their own limits', async () => {
      const counter = linkRequestCounter(requestCountRepository(database.db), LIMITS, randomUUID());
      const client = newClient();
      const asked = [];
      for (let i = 0; i < LIMITS.perClient + 1; i += 1)
        asked.push(await counter.allow({ email: newAddress(), client }));
      assert.equal(countOf(asked, true), LIMITS.perClient);
      assert.equal(asked.at(-1), false);

      // One address from many clients: refused once the address's own ceiling is reached.
      const email = newAddress();
      const byAddress = [];
      for (let i = 0; i < LIMITS.perAddress + 2; i += 1)
        byAddress.push(await counter.allow({ email, client: newClient() }));
      assert.equal(countOf(byAddress, true), LIMITS.perAddress);
    });

    it('an IPv6 client counts by its /64', async () => {
      const counter = linkRequestCounter(requestCountRepository(database.db), LIMITS, randomUUID());
      const email = newAddress();
      const hosts = ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ffff::3', '2001:db8:1:2::4'];
      const allowed = [];
      for (const client of hosts) allowed.push(await counter.allow({ email, client }));
      assert.deepEqual(allowed, [true, true, true, false]);
      assert.equal(networkOf(hosts[0]!), networkOf(hosts[2]!));
    });

    it('wouldAllow counts nothing; scopes are counted apart; a new window starts afresh', async () => {
      const scope = randomUUID();
      const counter = linkRequestCounter(requestCountRepository(database.db), LIMITS, scope);
      const request = { email: newAddress(), client: newClient() };
      for (let i = 0; i < 5; i += 1) assert.equal(await counter.wouldAllow(request), true);
      assert.deepEqual(await ask(counter, request, 4), [true, true, true, false]);
      assert.equal(
        await linkRequestCounter(requestCountRepository(database.db), LIMITS, randomUUID()).allow(request),
        true,
      );

      await database.db
        .updateTable('link_request_count')
        .set({ window_started_at: fromNow(-LIMITS.windowSeconds - 1) })
        .where('bucket', 'like', `${scope}:%`)
        .execute();
      assert.equal(await counter.wouldAllow(request), true, 'the window is over');
      assert.deepEqual(await ask(counter, request, 4), [true, true, true, false]);
    });

    it('counts nothing in a transaction that rolls back', async () => {
      const counter = linkRequestCounter(
        requestCountRepository(database.db),
        { ...LIMITS, perAddressAndClient: 1 },
        randomUUID(),
      );
      const request = { email: newAddress(), client: newClient() };
      await assert.rejects(
        database.db.transaction().execute(async (trx) => {
          assert.equal(await counter.allow(request, trx), true);
          throw new Error('rolled back');
        }),
        /rolled back/,
      );
      assert.equal(await counter.allow(request), true);
    });

    it(`of ${racers} concurrent requests from two instances, exactly as many as the limit are allowed`, async () => {
      const scope = randomUUID();
      const limits = { ...LIMITS, perAddressAndClient: 5, perAddress: 100, perClient: 100 };
      const instances = [database.db, database.another()];
      const counter = linkRequestCounter(requestCountRepository(database.db), limits, scope);
      const request = { email: newAddress(), client: newClient() };
      const allowed = await race(racers, (i) => counter.allow(request, instances[i % 2]));
      assert.equal(countOf(allowed, true), limits.perAddressAndClient);
      // Each request got a number of its own: every one of them is counted.
      const counts = await database.db
        .selectFrom('link_request_count')
        .select('requests')
        .where('bucket', 'like', `${scope}:%`)
        .execute();
      // The address's own count takes only the requests its client's limits let through.
      assert.deepEqual(
        counts.map((row) => row.requests).sort((a, b) => a - b),
        [limits.perAddressAndClient, racers, racers],
      );
    });

    if (kind === 'postgres') {
      it('a request whose connection is lost counts nothing', async () => {
        const scope = randomUUID();
        const counter = linkRequestCounter(requestCountRepository(database.db), LIMITS, scope);
        const request = { email: newAddress(), client: newClient() };
        assert.equal(await counter.allow(request), true);
        const error = await database.cutWhileWaiting(
          'select 1 from link_request_count where bucket = $1 for update',
          [`${scope}:client:${networkOf(request.client)}`],
          () => counter.allow(request),
        );
        assert.equal(isConnectionLoss(error), true, String(error));
        assert.deepEqual(await ask(counter, request, 3), [true, true, false], 'one request counted so far');
      });
    }
  });
}
