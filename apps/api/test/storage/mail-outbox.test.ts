import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { isConnectionLoss } from '@customer-core/database';
import { testDatabaseKinds } from '@customer-core/database/testing';
import {
  countOf,
  race,
  racersOn,
  type ContractDatabase,
} from '@customer-core/database/testing/storage-contract';
import type { ApiDatabase } from '../../src/db/schema.js';
import { linkTokenRepository } from '../../src/email-links/link-token-repository.js';
import { requestCountRepository } from '../../src/email-links/request-count-repository.js';
import { linkRequestCounter } from '../../src/email-links/request-limits.js';
import { devMailboxRepository, listDevMailbox } from '../../src/mail/dev-mailbox-repository.js';
import {
  claimDueMail,
  enqueueMail,
  markDead,
  listDeadMail,
  markSent,
  purgeFinished,
  resendDeadMail,
  scheduleRetry,
  withdrawPendingMail,
  type MailMessage,
} from '../../src/mail/outbox-repository.js';
import { devMailboxTransport, messageIdFor } from '../../src/mail/transports.js';
import { recordingLogger } from '../support/mail.js';
import { fromNow, openApiStorage } from './support.js';

// The outbox: a message is written in the transaction of what it carries, claimed by one worker at a
// time however many claim at once, and settled only by the claim that holds it. And the dev mailbox,
// where messages land outside production.

const message = (overrides: Partial<MailMessage> = {}): MailMessage => ({
  to: 'ada@example.com',
  subject: 'Your sign-in link',
  text: 'Sign in: https://portal.example/auth/magic-link/TOKEN',
  html: '<a href="https://portal.example/auth/magic-link/TOKEN">Sign in</a>',
  idempotencyKey: `magic-link:${randomUUID()}`,
  kind: 'magic-link',
  ...overrides,
});

const LEASE = { limit: 10, leaseMs: 60_000 };

for (const kind of testDatabaseKinds()) {
  const racers = racersOn(kind);
  describe(`mail outbox (${kind})`, () => {
    let database: ContractDatabase<ApiDatabase>;
    before(async () => {
      database = await openApiStorage(kind);
    });
    after(() => database?.close());

    const rowOf = (id: string) =>
      database.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    /** Claims see every due message: each test that claims starts from an empty outbox. */
    const emptyOutbox = () => database.db.deleteFrom('mail_outbox').execute();

    it('writes a message once per idempotency key, however many write it at once', async () => {
      const mail = message();
      const first = await enqueueMail(database.db, mail);
      assert.equal(first.created, true);
      assert.deepEqual(await enqueueMail(database.db, { ...mail, subject: 'Another' }), {
        id: first.id,
        created: false,
      });
      const raced = message();
      const writes = await race(racers, (i) => enqueueMail(i % 2 ? database.another() : database.db, raced));
      assert.equal(
        countOf(
          writes.map((w) => w.created),
          true,
        ),
        1,
      );
      assert.equal(new Set(writes.map((w) => w.id)).size, 1);
      const row = await rowOf(first.id);
      assert.equal(row.subject, mail.subject);
      assert.equal(row.status, 'pending');
      assert.equal(row.attempts, 0);
    });

    it('writes nothing in a transaction that rolls back', async () => {
      const mail = message();
      await assert.rejects(
        database.db.transaction().execute(async (trx) => {
          await enqueueMail(trx, mail);
          throw new Error('the token could not be stored');
        }),
        /could not be stored/,
      );
      const rows = await database.db
        .selectFrom('mail_outbox')
        .select('id')
        .where('idempotency_key', '=', mail.idempotencyKey)
        .execute();
      assert.deepEqual(rows, []);
    });

    it('claims due messages once per lease; a message whose lease ended is claimed again', async () => {
      await emptyOutbox();
      const due = await enqueueMail(database.db, message());
      const later = await enqueueMail(database.db, message());
      await database.db
        .updateTable('mail_outbox')
        .set({ next_attempt_at: fromNow(3600) })
        .where('id', '=', later.id)
        .execute();
      const [claimed, ...more] = await claimDueMail(database.db, LEASE);
      assert.deepEqual(more, [], 'the later one is not due');
      assert.equal(claimed?.id, due.id);
      assert.equal(claimed.attempt, 1);
      assert.equal(claimed.text, message().text);
      assert.deepEqual(await claimDueMail(database.db, LEASE), [], 'not while its lease holds');

      await database.db
        .updateTable('mail_outbox')
        .set({ claimed_until: fromNow(-1) })
        .where('id', '=', due.id)
        .execute();
      const [again] = await claimDueMail(database.db, LEASE);
      assert.equal(again?.id, due.id);
      assert.equal(again.attempt, 2);
      assert.notEqual(again.claimToken, claimed.claimToken);
      // The first claim has lost it: it settles nothing.
      assert.equal(await scheduleRetry(database.db, claimed, 1000, 'timeout'), false);
      assert.equal(await markDead(database.db, claimed, 'gave up'), false);
      assert.equal((await rowOf(due.id)).status, 'sending');
    });

    it(`${racers} workers claiming at once from two instances take each message once`, async () => {
      await emptyOutbox();
      const ids = new Set<string>();
      // Two messages a worker, and room for three each: every message is claimed, some by a race.
      for (let i = 0; i < racers * 2; i += 1) ids.add((await enqueueMail(database.db, message())).id);
      const claims = await race(racers, (i) =>
        claimDueMail(i % 2 ? database.another() : database.db, { limit: 3, leaseMs: 60_000 }),
      );
      const claimed = claims.flat().map((mail) => mail.id);
      assert.equal(claimed.length, new Set(claimed).size, 'no message claimed twice');
      assert.deepEqual(new Set(claimed), ids, 'every message claimed');
    });

    it('a retry comes back when due; sent messages lose their bodies, dead ones keep them', async () => {
      await emptyOutbox();
      const { id } = await enqueueMail(database.db, message());
      const [first] = await claimDueMail(database.db, LEASE);
      assert.equal(await scheduleRetry(database.db, first!, 60_000, 'connection refused'), true);
      const retried = await rowOf(id);
      assert.equal(retried.status, 'pending');
      assert.equal(retried.last_error, 'connection refused');
      assert.deepEqual(await claimDueMail(database.db, LEASE), [], 'not due yet');
      await database.db
        .updateTable('mail_outbox')
        .set({ next_attempt_at: fromNow(-1) })
        .where('id', '=', id)
        .execute();
      const [second] = await claimDueMail(database.db, LEASE);
      assert.equal(second?.attempt, 2);
      await markSent(database.db, id);
      const sent = await rowOf(id);
      assert.equal(sent.status, 'sent');
      assert.ok(sent.sent_at instanceof Date);
      assert.equal(sent.text_body, null);
      assert.equal(sent.html_body, null);
      assert.equal(await markDead(database.db, second, 'late'), false, 'sent stays sent');

      const dead = await enqueueMail(database.db, message());
      const [claim] = await claimDueMail(database.db, LEASE);
      assert.equal(await markDead(database.db, claim!, '550 no such user'), true);
      const row = await rowOf(dead.id);
      assert.equal(row.status, 'dead');
      assert.equal(row.last_error, '550 no such user');
      assert.notEqual(row.text_body, null, 'kept, to be sent again');
    });

    it('lists dead messages without their text, and queues again those named or all', async () => {
      await emptyOutbox();
      const die = async (to: string, error: string) => {
        const { id } = await enqueueMail(database.db, message({ to, idempotencyKey: randomUUID() }));
        const [claim] = await claimDueMail(database.db, LEASE);
        assert.equal(await markDead(database.db, claim!, error), true);
        return id;
      };
      const first = await die('first@example.com', '550 no such user');
      const second = await die('second@example.com', 'connection refused');
      // One that died when dead messages lost their text: listed, never queued.
      const bodiless = await die('old@example.com', '554 refused');
      await database.db
        .updateTable('mail_outbox')
        .set({ text_body: null, html_body: null })
        .where('id', '=', bodiless)
        .execute();
      const pending = await enqueueMail(database.db, message({ idempotencyKey: randomUUID() }));

      const listed = await listDeadMail(database.db);
      assert.deepEqual(new Set(listed.map((dead) => dead.id)), new Set([first, second, bodiless]));
      const firstListed = listed.find((dead) => dead.id === first)!;
      assert.deepEqual(
        { ...firstListed, createdAt: undefined, diedAt: undefined },
        {
          id: first,
          recipient: 'first@example.com',
          kind: 'magic-link',
          attempts: 1,
          lastError: '550 no such user',
          createdAt: undefined,
          diedAt: undefined,
          resendable: true,
        },
      );
      assert.ok(firstListed.diedAt >= firstListed.createdAt);
      assert.equal(listed.find((dead) => dead.id === bodiless)?.resendable, false);
      assert.equal((await listDeadMail(database.db, 2)).length, 2);

      assert.deepEqual(await resendDeadMail(database.db, { ids: [first, bodiless, pending.id] }), [first]);
      const requeued = await rowOf(first);
      assert.equal(requeued.status, 'pending');
      assert.equal(requeued.attempts, 0);
      assert.equal(requeued.last_error, '550 no such user', 'the last error stays until the next attempt');
      assert.deepEqual(await resendDeadMail(database.db, { ids: [] }), []);
      assert.deepEqual(await resendDeadMail(database.db, 'all'), [second]);
      assert.deepEqual(
        (await claimDueMail(database.db, LEASE)).map((mail) => mail.id).sort(),
        [first, second, pending.id].sort(),
        'due at once',
      );
      assert.deepEqual(
        (await listDeadMail(database.db)).map((dead) => dead.id),
        [bodiless],
      );
    });

    it('withdraws pending messages of the kinds to the recipient, any case; not one being sent', async () => {
      await emptyOutbox();
      const to = `Old.${randomUUID()}@Example.com`;
      await enqueueMail(database.db, message({ to }));
      const other = await enqueueMail(database.db, message({ to, kind: 'password-changed' }));
      const sending = await enqueueMail(database.db, message({ to }));
      await database.db
        .updateTable('mail_outbox')
        .set({ status: 'sending' })
        .where('id', '=', sending.id)
        .execute();
      assert.equal(
        await withdrawPendingMail(database.db, { recipient: to.toLowerCase(), kinds: ['magic-link'] }),
        1,
      );
      assert.equal(await withdrawPendingMail(database.db, { recipient: to, kinds: [] }), 0);
      const left = await database.db.selectFrom('mail_outbox').select('id').execute();
      assert.deepEqual(left.map((row) => row.id).sort(), [other.id, sending.id].sort());
    });

    it('forgets sent and dead messages after their days, keeps the rest', async () => {
      await emptyOutbox();
      const old = await enqueueMail(database.db, message());
      const recent = await enqueueMail(database.db, message());
      const waiting = await enqueueMail(database.db, message());
      await database.db
        .updateTable('mail_outbox')
        .set({ status: 'sent' })
        .where('id', '!=', waiting.id)
        .execute();
      await sql`update mail_outbox set updated_at = now() - interval '31 days'
        where id in (${old.id}::uuid, ${waiting.id}::uuid)`.execute(database.db);
      await purgeFinished(database.db);
      const left = await database.db.selectFrom('mail_outbox').select('id').execute();
      assert.deepEqual(left.map((row) => row.id).sort(), [recent.id, waiting.id].sort());
    });

    if (kind === 'postgres') {
      it('a link, its e-mail and the request’s count are written in one transaction: a lost connection leaves none', async () => {
        const tokens = linkTokenRepository(database.db);
        const counter = linkRequestCounter(
          requestCountRepository(database.db),
          { perAddressAndClient: 1, perAddress: 1, perClient: 1, windowSeconds: 600 },
          randomUUID(),
        );
        const request = { email: 'cut@example.com', client: '192.0.2.1' };
        const mail = message();
        let token = '';
        // An uncommitted message with the same key makes the request wait when it writes the e-mail.
        const error = await database.cutWhileWaiting(
          `insert into mail_outbox (idempotency_key, kind, recipient, subject, text_body, html_body)
           values ($1, 'magic-link', 'x@example.com', 'x', 'x', 'x')`,
          [mail.idempotencyKey],
          () =>
            database.db.transaction().execute(async (trx) => {
              assert.equal(await counter.allow(request, trx), true);
              ({ token } = await tokens.issue(
                {
                  purpose: 'magic_link',
                  idpUserId: randomUUID(),
                  returnTo: null,
                },
                trx,
              ));
              await enqueueMail(trx, mail);
            }),
        );
        assert.equal(isConnectionLoss(error), true, String(error));
        assert.equal(await tokens.isUsable('magic_link', token), false, 'no link');
        assert.equal(await counter.allow(request), true, 'the request was not counted');
      });

      it('a claim whose connection is lost takes nothing', async () => {
        await emptyOutbox();
        const { id } = await enqueueMail(database.db, message());
        const error = await database.cutWhileWaiting('lock table mail_outbox in exclusive mode', [], () =>
          claimDueMail(database.db, LEASE),
        );
        assert.equal(isConnectionLoss(error), true, String(error));
        assert.equal((await rowOf(id)).status, 'pending');
        assert.equal((await claimDueMail(database.db, LEASE))[0]?.attempt, 1);
      });
    }

    describe('the dev mailbox', () => {
      it('keeps each message once by its Message-ID and lists the newest first, for a recipient in any case', async () => {
        const log = recordingLogger();
        const transport = devMailboxTransport(devMailboxRepository(database.db), {
          log,
          publicUrl: 'http://localhost:8080',
          production: false,
        });
        const to = `Reader.${randomUUID()}@example.com`;
        const send = (idempotencyKey: string, subject: string) =>
          transport.send({
            id: randomUUID(),
            kind: 'magic-link',
            from: { name: 'Main Street Funding', address: 'no-reply@portal.example' },
            to,
            subject,
            text: 'Sign in: https://portal.example/auth/magic-link/TOKEN',
            html: '<a href="https://portal.example/auth/magic-link/TOKEN?x=1&amp;y=2">Sign in</a>',
            idempotencyKey,
            messageId: messageIdFor(idempotencyKey, 'no-reply@portal.example'),
          });
        await send('first', 'First');
        await send('first', 'First, delivered again');
        await send('second', 'Second');
        await race(racers, () => send('raced', 'Raced'));
        const listed = await listDevMailbox(database.db, { to: to.toUpperCase() });
        assert.deepEqual(
          listed.map((m) => m.subject),
          ['Raced', 'Second', 'First'],
        );
        assert.equal(listed[2]!.from, 'Main Street Funding <no-reply@portal.example>');
        assert.deepEqual(listed[2]!.links, [
          'https://portal.example/auth/magic-link/TOKEN?x=1&y=2',
          'https://portal.example/auth/magic-link/TOKEN',
        ]);
        assert.ok(!Number.isNaN(Date.parse(listed[2]!.createdAt)));
        assert.equal((await listDevMailbox(database.db, { to, limit: 1 })).length, 1);
        assert.ok((await listDevMailbox(database.db)).length >= 3, 'everyone’s');
      });
    });
  });
}
