import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  STEP_UP_CODE_MAX_SENDS,
  STEP_UP_CODE_MAX_TRIES,
  STEP_UP_CODE_MAX_WRONG_PER_WINDOW,
  STEP_UP_CODE_SEND_WINDOW_SECONDS,
} from '@customer-core/contracts';
import { isConnectionLoss } from '@customer-core/database';
import { testDatabaseKinds } from '@customer-core/database/testing';
import {
  countOf,
  race,
  racersOn,
  type ContractDatabase,
} from '@customer-core/database/testing/storage-contract';
import { emailChangeRepository } from '../../src/account/email-change-repository.js';
import { knownDeviceRepository } from '../../src/account/known-device-repository.js';
import { stepUpCodeRepository } from '../../src/account/step-up-code-repository.js';
import {
  securityEventRepository,
  type SecurityEventRow,
} from '../../src/activity/security-event-repository.js';
import type { ApiDatabase } from '../../src/db/schema.js';
import { linkTokenRepository } from '../../src/email-links/link-token-repository.js';
import { fromNow, newBorrower, openApiStorage } from './support.js';

// What the account page keeps: the browsers a borrower signs in with, their security events, the
// savepoint an email change request writes its link behind, and the codes e-mailed for a step-up.

const event = (overrides: Partial<SecurityEventRow> = {}): SecurityEventRow => ({
  kind: 'signed_in',
  sessionId: null,
  method: 'password',
  endedBy: null,
  factor: null,
  userAgent: 'Firefox',
  clientNetwork: '192.0.2.0/24',
  ...overrides,
});

for (const kind of testDatabaseKinds()) {
  const racers = racersOn(kind);
  describe(`the borrower’s account (${kind})`, () => {
    let database: ContractDatabase<ApiDatabase>;
    before(async () => {
      database = await openApiStorage(kind);
    });
    after(() => database?.close());

    describe('known devices', () => {
      it('adds a device once, and tells whether the borrower has another', async () => {
        const devices = knownDeviceRepository(database.db);
        const { id } = await newBorrower(database.db);
        const other = await newBorrower(database.db);
        assert.equal(await devices.add(id, 'laptop'), true);
        assert.equal(await devices.add(id, 'laptop'), false, 'theirs already');
        assert.equal(await devices.add(other.id, 'laptop'), true, 'another borrower’s is their own');
        assert.equal(await devices.hasOther(id, 'laptop'), false);
        assert.equal(await devices.add(id, 'phone'), true);
        assert.equal(await devices.hasOther(id, 'laptop'), true);
      });

      it('adds nothing in a transaction that rolls back', async () => {
        const devices = knownDeviceRepository(database.db);
        const { id } = await newBorrower(database.db);
        await assert.rejects(
          devices.transaction(async (inside) => {
            assert.equal(await inside.add(id, 'tablet'), true);
            throw new Error('the e-mail could not be enqueued');
          }),
          /could not be enqueued/,
        );
        assert.equal(await devices.add(id, 'tablet'), true, 'nothing was kept');
      });

      it(`of ${racers} sign-ins from one new browser at once, exactly one adds it`, async () => {
        const { id } = await newBorrower(database.db);
        const instances = [knownDeviceRepository(database.db), knownDeviceRepository(database.another())];
        const added = await race(racers, (i) => instances[i % 2]!.add(id, 'new-browser'));
        assert.equal(countOf(added, true), 1);
      });

      if (kind === 'postgres') {
        it('a sign-in whose connection is lost adds no device', async () => {
          const devices = knownDeviceRepository(database.db);
          const { id } = await newBorrower(database.db);
          const error = await database.cutWhileWaiting(
            'insert into known_device (borrower_id, device_hash) values ($1, $2)',
            [id, 'cut'],
            () => devices.add(id, 'cut'),
          );
          assert.equal(isConnectionLoss(error), true, String(error));
          assert.equal(await devices.add(id, 'cut'), true, 'nothing was kept');
        });
      }
    });

    describe('security events', () => {
      it('keeps what the list shows, and pages newest first by time and id', async () => {
        const events = securityEventRepository(database.db);
        const { id } = await newBorrower(database.db);
        const other = await newBorrower(database.db);
        const since = new Date(Date.now() - 60_000);
        await events.insert(id, event({ kind: 'signed_in', method: 'passkey', sessionId: 's1' }));
        await events.insert(id, event({ kind: 'second_factor_added', method: null, factor: 'passkey' }));
        await events.insert(id, event({ kind: 'session_ended', method: null, endedBy: 'borrower' }));
        await events.insert(other.id, event());

        const all = await events.page([id], { since, limit: 10 });
        assert.deepEqual(all.map((e) => e.kind).sort(), [
          'second_factor_added',
          'session_ended',
          'signed_in',
        ]);
        // Newest first; events of one millisecond by id.
        const order = all.map((e) => [e.occurred_at.getTime(), e.id] as const);
        assert.deepEqual(
          order,
          [...order].sort(([at, a], [bt, b]) => bt - at || (a < b ? 1 : -1)),
        );
        assert.deepEqual(
          { ...all.find((e) => e.kind === 'signed_in'), id: undefined, occurred_at: undefined },
          {
            id: undefined,
            occurred_at: undefined,
            kind: 'signed_in',
            method: 'passkey',
            ended_by: null,
            factor: null,
            user_agent: 'Firefox',
            client_network: '192.0.2.0/24',
          },
        );
        assert.equal(all.find((e) => e.kind === 'second_factor_added')?.factor, 'passkey');
        assert.equal(all.find((e) => e.kind === 'session_ended')?.ended_by, 'borrower');
        assert.ok(all[0]!.occurred_at instanceof Date);

        const [first, ...rest] = await events.page([id], { since, limit: 1 });
        const next = await events.page([id], {
          since,
          limit: 10,
          after: { occurredAt: first!.occurred_at, id: first!.id },
        });
        assert.deepEqual(
          next.map((e) => e.id),
          all.slice(1).map((e) => e.id),
        );
        assert.deepEqual(rest, []);
        assert.equal((await events.page([id, other.id], { since, limit: 10 })).length, 4);
        assert.deepEqual(await events.page([id], { since: new Date(Date.now() + 60_000), limit: 10 }), []);
      });

      it('pages events of the same instant by id: the cursor moves past each once', async () => {
        const events = securityEventRepository(database.db);
        const { id } = await newBorrower(database.db);
        const instant = new Date();
        const ids = ['0aaaaaaa-0000-4000-8000-000000000000', 'a0000000-0000-4000-8000-000000000000'];
        for (const eventId of ids)
          await database.db
            .insertInto('security_event')
            .values({ id: eventId, borrower_id: id, kind: 'password_changed', occurred_at: instant })
            .execute();
        const since = new Date(instant.getTime() - 1000);
        const [first] = await events.page([id], { since, limit: 1 });
        assert.equal(first!.id, ids[1]);
        const [second] = await events.page([id], {
          since,
          limit: 1,
          after: { occurredAt: first!.occurred_at, id: first!.id },
        });
        assert.equal(second!.id, ids[0]);
      });

      it('lists the events a server writes for a borrower in the order it wrote them, however fast', async () => {
        const events = securityEventRepository(database.db);
        const { id } = await newBorrower(database.db);
        // As one request writes them (a password change, then the sessions it ends): many in a millisecond.
        const written = Array.from({ length: 20 }, (_, i) => `Agent ${i}`);
        for (const userAgent of written) await events.insert(id, event({ userAgent }));
        const listed = await events.page([id], { since: new Date(Date.now() - 60_000), limit: 100 });
        assert.deepEqual(
          listed.map((e) => e.user_agent),
          written.toReversed(),
        );
      });

      it('finds the borrower’s sign-ins since a time', async () => {
        const events = securityEventRepository(database.db);
        const { id } = await newBorrower(database.db);
        const since = new Date(Date.now() - 1000);
        await events.insert(id, event({ kind: 'signed_in' }));
        await events.insert(id, event({ kind: 'password_changed', method: null }));
        const times = await events.signInTimes(id, since);
        assert.equal(times.length, 1);
        assert.ok(times[0] instanceof Date && times[0] >= since);
        assert.deepEqual(await events.signInTimes(id, new Date(Date.now() + 60_000)), []);
      });

      it(`${racers} events written at once are all kept`, async () => {
        const events = securityEventRepository(database.db);
        const { id } = await newBorrower(database.db);
        await race(racers, () => events.insert(id, event()));
        const kept = await events.page([id], { since: new Date(Date.now() - 60_000), limit: 100 });
        assert.equal(kept.length, racers);
      });
    });

    describe('an email change request', () => {
      it('what it writes after its savepoint is undone by rolling back to it, kept by releasing it', async () => {
        const changes = emailChangeRepository(database.db);
        const tokens = linkTokenRepository(database.db);
        const user = randomUUID();
        const [kept, undone, released] = await changes.transaction(async (tx, trx) => {
          const before = await tokens.issue(
            {
              purpose: 'password_reset',
              idpUserId: user,
              returnTo: null,
            },
            trx,
          );
          await tx.savepoint();
          const rolledBack = await tokens.issue(
            {
              purpose: 'email_change',
              idpUserId: user,
              returnTo: null,
              newEmail: 'new@example.com',
            },
            trx,
          );
          await tx.rollbackToSavepoint();
          await tx.savepoint();
          const after = await tokens.issue(
            {
              purpose: 'email_change',
              idpUserId: user,
              returnTo: null,
              newEmail: 'newer@example.com',
            },
            trx,
          );
          await tx.releaseSavepoint();
          return [before, rolledBack, after];
        });
        assert.equal(await tokens.isUsable('password_reset', kept.token), true);
        assert.equal(await tokens.isUsable('email_change', undone.token), false);
        assert.equal((await tokens.consume('email_change', released.token))?.newEmail, 'newer@example.com');
      });
    });

    describe('e-mailed step-up codes', () => {
      let codes: ReturnType<typeof stepUpCodeRepository>;
      before(() => {
        codes = stepUpCodeRepository(database.db);
      });
      const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');

      it(`of ${racers} concurrent uses of the right code, exactly one is accepted`, async () => {
        const { id } = await newBorrower(database.db);
        const code = await codes.issue(id, 'session-a');
        assert.ok(code);
        const uses = await race(racers, () => codes.claim(id, 'session-a', code));
        assert.equal(countOf(uses, 'accepted'), 1);
        assert.equal(countOf(uses, 'spent'), racers - 1);
      });

      it(`of ${racers} concurrent wrong codes, ${STEP_UP_CODE_MAX_TRIES} are tried; then even the right one is refused`, async () => {
        const { id } = await newBorrower(database.db);
        const code = (await codes.issue(id, 'session-a'))!;
        const tries = await race(racers, () => codes.claim(id, 'session-a', wrongFor(code)));
        assert.equal(countOf(tries, 'wrong_code'), STEP_UP_CODE_MAX_TRIES);
        assert.equal(await codes.claim(id, 'session-a', code), 'spent');
      });

      it('is good only in the session that asked for it, and a new code replaces it', async () => {
        const { id } = await newBorrower(database.db);
        const first = (await codes.issue(id, 'session-a'))!;
        assert.equal(await codes.claim(id, 'session-b', first), 'spent');
        const second = (await codes.issue(id, 'session-b'))!;
        if (second !== first) assert.equal(await codes.claim(id, 'session-b', first), 'wrong_code');
        assert.equal(await codes.claim(id, 'session-a', second), 'spent', 'the first session’s code is gone');
        assert.equal(await codes.claim(id, 'session-b', second), 'accepted');
      });

      it(`takes ${STEP_UP_CODE_MAX_WRONG_PER_WINDOW} wrong tries of all codes in a window, racing; then none until it has passed`, async () => {
        const { id } = await newBorrower(database.db);
        let wrong = 0;
        while (wrong < STEP_UP_CODE_MAX_WRONG_PER_WINDOW) {
          const code = (await codes.issue(id, 'session-a'))!;
          const tries = await race(racers, () => codes.claim(id, 'session-a', wrongFor(code)));
          wrong += countOf(tries, 'wrong_code');
        }
        assert.equal(wrong, STEP_UP_CODE_MAX_WRONG_PER_WINDOW);
        const right = (await codes.issue(id, 'session-a'))!;
        assert.equal(await codes.claim(id, 'session-a', right), 'too_many_tries', 'even the right code');
        await database.db
          .updateTable('step_up_code')
          .set({ window_started_at: fromNow(-STEP_UP_CODE_SEND_WINDOW_SECONDS - 1) })
          .where('borrower_id', '=', id)
          .execute();
        const next = (await codes.issue(id, 'session-a'))!;
        assert.equal(await codes.claim(id, 'session-a', next), 'accepted', 'a new window');
      });

      it(`of ${racers} concurrent sends, ${STEP_UP_CODE_MAX_SENDS} go in a window`, async () => {
        const { id } = await newBorrower(database.db);
        const sends = await race(racers, () => codes.issue(id, 'session-a'));
        assert.equal(sends.filter((code) => code !== undefined).length, STEP_UP_CODE_MAX_SENDS);
      });
    });
  });
}
