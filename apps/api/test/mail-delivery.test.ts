import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import type { ApiDatabase } from '../src/db/schema.js';
import { MailWorker, type MailMessage, type MailWorkerOptions } from '../src/mail/index.js';
import { claimDueMail, enqueueMail, outboxRepository } from '../src/mail/outbox-repository.js';
import { messageIdFor, smtpTransport } from '../src/mail/transports.js';
import { mailTestDatabase, recordingLogger } from './support/mail.js';
import { untilAfter } from '../testing/index.js';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.js';

// The outbox and its worker against a real SMTP server (smtp-server on 127.0.0.1), on PGlite; the
// outbox's own contract, on both databases, is storage/mail-outbox.test.ts.

const FROM = { name: 'Main Street Funding', address: 'no-reply@portal.lender.example' };

function message(overrides: Partial<MailMessage> = {}): MailMessage {
  const key = `test:${randomUUID()}`;
  return {
    to: 'ada@example.com',
    subject: 'Reset your Main Street Funding password',
    text: 'Reset your password\n\nhttps://portal.lender.example/auth/password-reset/SECRET-TOKEN\n',
    html: '<p>Reset your password</p><a href="https://portal.lender.example/auth/password-reset/SECRET-TOKEN">Choose a new password</a>',
    idempotencyKey: key,
    kind: 'password-reset',
    ...overrides,
  };
}

/** A started worker on `db` delivering to the sink, with a fast schedule unless told otherwise. */
function startWorkerOn(
  db: Kysely<ApiDatabase>,
  sink: SmtpSink,
  running: MailWorker[],
  options: Partial<MailWorkerOptions> = {},
) {
  const log = recordingLogger();
  const transport = smtpTransport(sink.url);
  const worker = new MailWorker(outboxRepository(db), transport, {
    from: FROM,
    pollIntervalMs: 25,
    maxAttempts: 8,
    retryBaseMs: 20,
    retryMaxMs: 200,
    leaseMs: 5_000,
    production: false,
    log,
    ...options,
  });
  const stop = worker.stop.bind(worker);
  worker.stop = async () => {
    await stop();
    await transport.close();
  };
  worker.start();
  running.push(worker);
  return { worker, log };
}

describe('mail delivery', () => {
  let database: Awaited<ReturnType<typeof mailTestDatabase>>;
  let db: Kysely<ApiDatabase>;
  let sink: SmtpSink;
  const running: MailWorker[] = [];

  before(async () => {
    database = await mailTestDatabase('pglite');
    db = database.db;
    sink = await startSmtpSink();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((w) => w.stop()));
    sink.refuseRecipient = () => null;
    sink.delayMs = 0;
    await sink.restart();
  });
  after(async () => {
    await sink?.close();
    await database?.close();
  });

  /** A started worker delivering to the sink, with a fast schedule unless told otherwise. */
  const startWorker = (options: Partial<MailWorkerOptions> = {}) => startWorkerOn(db, sink, running, options);

  const rowOf = (id: string) =>
    db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /** The message's row once it has `status`, looked at after each of the worker's passes. */
  const rowOnceItIs = (status: 'sent' | 'dead', id: string, worker: MailWorker) =>
    untilAfter(
      `message ${id} ${status}`,
      () => worker.afterPass(),
      async () => {
        const row = await rowOf(id);
        return row.status === status && row;
      },
    );

  it('delivers an enqueued message once, with both parts and its idempotency key', async () => {
    const { worker } = startWorker({ pollIntervalMs: 60_000 }); // only the nudge can deliver it in time
    await worker.whenIdle();
    const mail = message();
    const { id, created } = await db.transaction().execute((trx) => enqueueMail(trx, mail));
    assert.equal(created, true);
    worker.nudge();
    await worker.whenIdle(); // the nudged pass has delivered and recorded it

    const received = sink.received.find((m) => m.idempotencyKey === mail.idempotencyKey);
    assert.ok(received, 'delivered when the worker went idle');
    assert.deepEqual(received.envelope, { from: FROM.address, to: ['ada@example.com'] });
    assert.equal(received.subject, mail.subject);
    assert.equal(received.text?.trim(), mail.text.trim());
    assert.equal(received.html, mail.html);
    assert.equal(received.idempotencyKey, mail.idempotencyKey);
    assert.equal(received.messageId, messageIdFor(mail.idempotencyKey, FROM.address));
    assert.match(received.messageId, /^<[0-9a-f]{40}@portal\.lender\.example>$/);
    assert.equal(received.headers.get('auto-submitted'), 'auto-generated');
    assert.equal(received.headers.get('from'), 'Main Street Funding <no-reply@portal.lender.example>');
    assert.match(received.headers.get('content-type') ?? '', /^multipart\/alternative/);

    const row = await rowOf(id);
    assert.equal(row.status, 'sent', 'recorded when the worker went idle');
    assert.equal(row.attempts, 1);
    assert.equal(row.text_body, null, 'bodies (with their one-time links) are cleared once sent');
    assert.equal(row.html_body, null);
    assert.ok(row.sent_at);

    worker.nudge();
    await worker.whenIdle();
    assert.equal(sink.countByKey(mail.idempotencyKey), 1, 'a delivered message is not sent again');
  });

  it('says when it is idle: after a nudge, only once the nudged pass has delivered and recorded', async () => {
    const { worker } = startWorker({ pollIntervalMs: 60_000 });
    await worker.whenIdle();
    const mail = message();
    const { id } = await enqueueMail(db, mail);
    worker.nudge();
    await worker.whenIdle();
    assert.equal(sink.countByKey(mail.idempotencyKey), 1, 'delivered before it went idle');
    assert.equal((await rowOf(id)).status, 'sent', 'and recorded');
  });

  it('tells a waiter when its next pass has ended: not before, and with the message recorded', async () => {
    const { worker } = startWorker({ pollIntervalMs: 60_000 });
    await worker.whenIdle();
    let ended = false;
    const passed = worker.afterPass().then(() => (ended = true));
    // Idle until the next poll, a minute away: nothing has ended a pass for the waiter yet.
    await worker.whenIdle();
    assert.equal(ended, false, 'an idle worker does not end a pass');
    const mail = message();
    const { id } = await enqueueMail(db, mail);
    worker.nudge();
    await passed;
    assert.equal(sink.countByKey(mail.idempotencyKey), 1, 'delivered when the pass ended');
    assert.equal((await rowOf(id)).status, 'sent', 'and recorded');
  });

  it('enqueueing the same idempotency key again is a no-op', async () => {
    const { worker } = startWorker();
    const mail = message();
    const first = await enqueueMail(db, mail);
    const second = await enqueueMail(db, { ...mail, subject: 'Something else' });
    assert.deepEqual(second, { id: first.id, created: false });
    await untilAfter(
      'delivery',
      () => worker.afterPass(),
      () => sink.countByKey(mail.idempotencyKey) === 1,
    );
    worker.nudge();
    await worker.whenIdle();
    assert.equal(sink.countByKey(mail.idempotencyKey), 1);
    assert.equal(sink.received.find((m) => m.idempotencyKey === mail.idempotencyKey)?.subject, mail.subject);
  });

  it('sends nothing for a transaction that rolls back', async () => {
    const { worker } = startWorker();
    const mail = message();
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await enqueueMail(trx, mail);
        worker.nudge();
        throw new Error('the token could not be stored');
      }),
      /the token could not be stored/,
    );
    worker.nudge();
    await worker.whenIdle();
    assert.equal(sink.countByKey(mail.idempotencyKey), 0);
    const rows = await db
      .selectFrom('mail_outbox')
      .select('id')
      .where('idempotency_key', '=', mail.idempotencyKey)
      .execute();
    assert.deepEqual(rows, []);
  });

  it('refuses a malformed message', async () => {
    await assert.rejects(
      enqueueMail(db, message({ to: 'ada@example.com\r\nBcc: eve@example.com' })),
      TypeError,
    );
    await assert.rejects(enqueueMail(db, message({ to: 'ada@example.com, eve@example.com' })), TypeError);
    await assert.rejects(enqueueMail(db, message({ subject: 'Hi\nBcc: eve@example.com' })), TypeError);
    await assert.rejects(enqueueMail(db, message({ idempotencyKey: 'has spaces' })), TypeError);
    await assert.rejects(enqueueMail(db, message({ html: '' })), TypeError);
  });

  it('an SMTP outage: retried with growing backoff, nothing lost, each delivered exactly once after it', async () => {
    await sink.stop();
    // The largest delay each time (random just below 1), so the schedule is visible in the log.
    const { worker, log } = startWorker({
      random: () => 0.999,
      retryBaseMs: 20,
      retryMaxMs: 160,
      maxAttempts: 20,
    });
    const mails = Array.from({ length: 6 }, (_, i) => message({ to: `borrower${i}@example.com` }));
    const ids = await db.transaction().execute(async (trx) => {
      const out: string[] = [];
      for (const mail of mails) out.push((await enqueueMail(trx, mail)).id);
      return out;
    });
    worker.nudge();

    await untilAfter(
      'every message retried at least three times',
      () => worker.afterPass(),
      async () => {
        const rows = await db.selectFrom('mail_outbox').select('attempts').where('id', 'in', ids).execute();
        return rows.every((r) => r.attempts >= 3);
      },
    );
    for (const id of ids) {
      const row = await rowOf(id);
      assert.ok(row.status === 'pending' || row.status === 'sending', `still queued, not ${row.status}`);
      assert.ok(
        row.status === 'sending' || /ECONNREFUSED|connect/i.test(row.last_error ?? ''),
        row.last_error ?? '',
      );
    }
    const delays = log.lines
      .filter((l) => l.mailId === ids[0] && l.level === 'warn')
      .map((l) => l.retryInMs as number);
    assert.deepEqual(delays.slice(0, 3), [19, 39, 79], 'exponential: the ceiling doubles with each attempt');
    assert.equal(
      sink.received.filter((m) => mails.some((x) => x.idempotencyKey === m.idempotencyKey)).length,
      0,
    );

    await sink.restart();
    await untilAfter(
      'all delivered after the outage',
      () => worker.afterPass(),
      async () => {
        const rows = await db.selectFrom('mail_outbox').select('status').where('id', 'in', ids).execute();
        return rows.every((r) => r.status === 'sent');
      },
    );
    worker.nudge();
    await worker.whenIdle();
    for (const mail of mails) assert.equal(sink.countByKey(mail.idempotencyKey), 1, mail.to);
  });

  it('a message is dead after its last attempt: visible, and logged without its body or links', async () => {
    sink.refuseRecipient = (address) => (address.startsWith('busy') ? 451 : null);
    const { worker, log } = startWorker({ maxAttempts: 3, production: true });
    const mail = message({ to: 'busy.borrower@example.com' });
    const { id } = await enqueueMail(db, mail);

    const row = await rowOnceItIs('dead', id, worker);
    assert.equal(row.attempts, 3);
    assert.match(row.last_error ?? '', /451/);
    assert.equal(row.text_body, mail.text, 'kept, so that an operator can send it again');
    assert.equal(sink.countByKey(mail.idempotencyKey), 0);

    const errors = log.lines.filter((l) => l.level === 'error');
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.mailId, id);
    assert.equal(errors[0]!.status, 'dead');
    assert.equal(errors[0]!.attempt, 3);
    assert.equal(errors[0]!.to, 'b***@example.com');
    assert.equal(log.lines.filter((l) => l.level === 'warn').length, 2, 'two retries before it');
    const logged = JSON.stringify(log.lines);
    assert.ok(!logged.includes('SECRET-TOKEN'), 'no token');
    assert.ok(!logged.includes('https://'), 'no link');
    assert.ok(!logged.includes('busy.borrower@example.com'), 'no full address in production');
  });

  it('a recipient refused for good (5xx) is dead at once', async () => {
    sink.refuseRecipient = (address) => (address.startsWith('nobody') ? 550 : null);
    const { worker } = startWorker();
    const { id } = await enqueueMail(db, message({ to: 'nobody@example.com' }));
    const row = await rowOnceItIs('dead', id, worker);
    assert.equal(row.attempts, 1);
    assert.match(row.last_error ?? '', /550/);
  });

  it('a message claimed by a worker that crashed is retried once its lease ends', async () => {
    const mail = message();
    const { id } = await enqueueMail(db, mail);
    // A worker claims it and dies before sending: its claim lasts 1.5 s.
    const [claimed] = await claimDueMail(db, { limit: 10, leaseMs: 1500 });
    assert.equal(claimed?.id, id);
    const { worker } = startWorker();
    worker.nudge();
    await worker.whenIdle();
    assert.equal((await rowOf(id)).status, 'sending', 'not taken while the lease holds');
    assert.equal(sink.countByKey(mail.idempotencyKey), 0);

    const row = await rowOnceItIs('sent', id, worker);
    assert.equal(row.attempts, 2);
    assert.equal(sink.countByKey(mail.idempotencyKey), 1);
  });

  it('a crash during the last attempt leaves the message dead, not lost in between', async () => {
    const { id } = await enqueueMail(db, message());
    await claimDueMail(db, { limit: 10, leaseMs: 100 });
    const { worker, log } = startWorker({ maxAttempts: 1 });
    const row = await rowOnceItIs('dead', id, worker);
    assert.match(row.last_error ?? '', /did not finish/);
    assert.ok(log.lines.some((l) => l.level === 'error' && l.mailId === id));
  });

  it('stopping lets a delivery in flight finish and records it', async () => {
    const held = sink.holdNextMessage();
    const { worker } = startWorker();
    const mail = message();
    const { id } = await enqueueMail(db, mail);
    worker.nudge();
    await held.arrived; // at the relay, unanswered: the delivery is in flight
    assert.equal((await rowOf(id)).status, 'sending');
    const stopped = worker.stop();
    held.release();
    await stopped;
    assert.equal((await rowOf(id)).status, 'sent');
    assert.equal(sink.countByKey(mail.idempotencyKey), 1);
  });
});

// Workers of several instances claim from one outbox at once: PGlite is one process, so this runs with
// TEST_DATABASE_URL only (the claims themselves race in storage/mail-outbox.test.ts, on both databases).
describe(
  'mail delivery by two workers on one PostgreSQL database',
  { skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL' },
  () => {
    let database: Awaited<ReturnType<typeof mailTestDatabase>>;
    let sink: SmtpSink;
    const running: MailWorker[] = [];

    before(async () => {
      database = await mailTestDatabase('postgres');
      sink = await startSmtpSink();
    });
    after(async () => {
      await Promise.all(running.splice(0).map((w) => w.stop()));
      await sink?.close();
      await database?.close();
    });

    it('each message is delivered once, and both workers take a share', async () => {
      sink.delayMs = 10;
      const mails = Array.from({ length: 40 }, (_, i) => message({ to: `many${i}@example.com` }));
      const ids: string[] = [];
      for (const mail of mails) ids.push((await enqueueMail(database.db, mail)).id);
      const a = startWorkerOn(database.db, sink, running, { pollIntervalMs: 20 });
      const b = startWorkerOn(database.another(), sink, running, { pollIntervalMs: 20 });
      const eitherPass = () => Promise.race([a.worker.afterPass(), b.worker.afterPass()]);
      await untilAfter('all sent', eitherPass, async () => {
        const rows = await database.db
          .selectFrom('mail_outbox')
          .select('status')
          .where('id', 'in', ids)
          .execute();
        return rows.every((r) => r.status === 'sent');
      });
      await Promise.all([a.worker.whenIdle(), b.worker.whenIdle()]);
      for (const mail of mails) assert.equal(sink.countByKey(mail.idempotencyKey), 1, mail.to);
      const deliveredBy = (log: typeof a.log) => log.lines.filter((l) => l.msg === 'mail: delivered').length;
      assert.equal(deliveredBy(a.log) + deliveredBy(b.log), 40);
      assert.ok(deliveredBy(a.log) > 0 && deliveredBy(b.log) > 0, 'both workers took a share');
    });
  },
);
