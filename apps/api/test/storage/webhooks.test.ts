import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createSecretBox } from '@customer-core/database';
import { testDatabaseKinds } from '@customer-core/database/testing';
import { race, racersOn, type ContractDatabase } from '@customer-core/database/testing/storage-contract';
import type { ApiDatabase } from '../../src/db/schema.js';
import { webhookEventRepository, webhookRepository } from '../../src/webhooks/webhook-repository.js';
import { webhookEvents } from '../../src/webhooks/webhooks.js';
import { openApiStorage } from './support.js';

// The webhook outbox: an event makes a delivery per endpoint that takes it, workers on every instance
// claim each delivery once, a lost claim records nothing, and a delivery that gives up turns its
// endpoint off while its later events wait.

const secrets = createSecretBox([{ id: 'k1', key: randomBytes(32) }]);
const ANSWER = { status: 500, response: 'down', error: null };

for (const kind of testDatabaseKinds()) {
  describe(`webhook outbox (${kind})`, () => {
    let database: ContractDatabase<ApiDatabase>;
    const repository = () => webhookRepository(database.db, secrets);

    before(async () => {
      database = await openApiStorage(kind);
    });
    after(() => database?.close());

    const endpoint = (eventTypes: Array<'borrower.registered' | 'checkout.completed'>) =>
      repository().addEndpoint({
        url: 'https://los.lender.example/hooks',
        description: null,
        eventTypes,
        secret: 'whsec_x',
      });
    const deliveriesTo = async (endpointId: string) =>
      (await repository().deliveries({ endpointId, limit: 500 })).length;

    it('makes a delivery per endpoint that takes the event, none for one an operator turned off, no event for none', async () => {
      const both = await endpoint(['borrower.registered', 'checkout.completed']);
      const other = await endpoint(['checkout.completed']);
      const off = await endpoint(['borrower.registered']);
      await repository().changeEndpoint(off.id, { enabled: false });
      await webhookEvents(webhookEventRepository(database.db), () => {}).publish('borrower.registered', {
        borrowerId: 'b1',
      });
      assert.deepEqual(
        [await deliveriesTo(both.id), await deliveriesTo(other.id), await deliveriesTo(off.id)],
        [1, 0, 0],
      );
      for (const id of [both.id, other.id]) await repository().changeEndpoint(id, { enabled: false });
      // No endpoint takes it now: nothing is written.
      const before = await database.db.selectFrom('webhook_event').select('id').execute();
      await webhookEvents(webhookEventRepository(database.db), () => {}).publish('borrower.registered', {
        borrowerId: 'b1',
      });
      assert.equal(
        (await database.db.selectFrom('webhook_event').select('id').execute()).length,
        before.length,
      );
    });

    it('claims each due delivery once, whichever instance’s workers race for it', async () => {
      const target = await endpoint(['checkout.completed']);
      const events = 20;
      for (let i = 0; i < events; i += 1)
        await webhookEvents(webhookEventRepository(database.db), () => {}).publish('checkout.completed', {
          n: i,
        });
      const claims = await race(racersOn(kind), (i) =>
        webhookRepository(i % 2 ? database.another() : database.db, secrets).claimDue({
          limit: 3,
          leaseMs: 60_000,
        }),
      );
      const claimed = claims.flat().map((claim) => claim.id);
      assert.equal(new Set(claimed).size, claimed.length, 'none claimed twice');
      assert.equal(claimed.length, Math.min(events, 3 * racersOn(kind)));
      assert.ok(claims.flat().every((claim) => claim.secret === 'whsec_x' && claim.attempt === 1));
      await repository().changeEndpoint(target.id, { enabled: false });
    });

    it('records nothing for a claim lost to another worker; the last failure turns the endpoint off, its events wait', async () => {
      const target = await endpoint(['borrower.registered']);
      await webhookEvents(webhookEventRepository(database.db), () => {}).publish('borrower.registered', {
        borrowerId: 'b2',
      });
      const [first] = await repository().claimDue({ limit: 10, leaseMs: 0 });
      assert.ok(first);
      // Its lease over, another worker claims it again: the first one's outcome is not recorded.
      const [second] = await repository().claimDue({ limit: 10, leaseMs: 60_000 });
      assert.equal(second?.id, first.id);
      assert.equal(
        await repository().markDelivered(first, { status: 204, response: null, error: null }),
        false,
      );
      assert.equal(await repository().markDead(second, ANSWER, 'Turned off: gave up.'), true);

      const [turnedOff] = (await repository().endpoints()).filter((one) => one.id === target.id);
      assert.deepEqual(
        [turnedOff!.enabled, turnedOff!.disabledReason, turnedOff!.failuresInARow],
        [false, 'Turned off: gave up.', 1],
      );
      await webhookEvents(webhookEventRepository(database.db), () => {}).publish('borrower.registered', {
        borrowerId: 'b3',
      });
      const waiting = await repository().deliveries({ endpointId: target.id, status: 'pending', limit: 10 });
      assert.equal(waiting.length, 1, 'an event meanwhile waits for it');
      assert.deepEqual(
        await repository().claimDue({ limit: 10, leaseMs: 60_000 }),
        [],
        'not delivered while off',
      );
    });
  });
}
