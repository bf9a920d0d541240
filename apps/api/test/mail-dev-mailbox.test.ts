import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  inbox,
  type MailboxMessage,
  startTestServer,
  TEST_ACH_SETTINGS,
  type TestServer,
  untilAfter,
} from '../testing/index.js';
import { logCollector } from './support/mail.js';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.js';

describe('dev mailbox', () => {
  let server: TestServer;
  const logs = logCollector();

  before(async () => {
    server = await startTestServer('pglite', { LOG_LEVEL: 'info' }, { logStream: logs.stream });
  });
  after(() => server?.close());

  const inboxOf = (to: string) => inbox(server.baseUrl, to);
  /** Enqueues as a flow would (in a transaction, then a nudge) and waits for it to arrive. */
  const send = async (message: { to: string; subject: string; text: string; html: string; kind: string }) => {
    const { mail, db } = server.server;
    const idempotencyKey = `test:${randomUUID()}`;
    await db.transaction().execute((trx) => mail.enqueue({ ...message, idempotencyKey }, trx));
    mail.nudge();
    await untilAfter(`"${message.subject}" in the mailbox`, mail.afterPass, async () =>
      (await inboxOf(message.to)).some((m) => m.subject === message.subject),
    );
  };

  it('lists delivered messages for a recipient, newest first, with their links', async () => {
    const { templates } = server.server.mail;
    await send({
      to: 'ada@example.com',
      ...templates.passwordResetEmail({
        firstName: 'Ada',
        resetUrl: '/auth/password-reset/tok_1',
        expiresInMinutes: 30,
      }),
    });
    await send({
      to: 'Ada@Example.com',
      ...templates.magicLinkEmail({
        firstName: 'Ada',
        signInUrl: '/auth/magic-link-landing/tok_2',
        expiresInMinutes: 15,
      }),
    });
    await send({
      to: 'someone.else@example.com',
      ...templates.magicLinkEmail({ signInUrl: '/x', expiresInMinutes: 15 }),
    });

    const messages = await inboxOf('ADA@example.com');
    assert.deepEqual(
      messages.map((m) => m.subject),
      ['Your Main Street Funding sign-in link', 'Reset your Main Street Funding password'],
    );
    const [magic, reset] = messages as [MailboxMessage, MailboxMessage];
    assert.deepEqual(Object.keys(magic).sort(), [
      'createdAt',
      'html',
      'id',
      'links',
      'subject',
      'text',
      'to',
    ]);
    assert.equal(magic.links[0], `${server.baseUrl}/auth/magic-link-landing/tok_2`);
    assert.equal(reset.links[0], `${server.baseUrl}/auth/password-reset/tok_1`);
    assert.ok(magic.links.every((l) => l.startsWith(`${server.baseUrl}/`)));
    assert.ok(Date.parse(magic.createdAt) >= Date.parse(reset.createdAt));
    assert.match(magic.text, /Hi Ada,/);
    assert.match(magic.html, /<table/);

    // The log says which message arrived and where to read it, never its subject, links or token.
    const logged = logs.lines.find((l) => l.msg === 'dev mailbox: magic-link for Ada@Example.com');
    assert.ok(logged, 'the message is logged by its kind');
    assert.match(String(logged.messageId), /^<[0-9a-f]{40}@/);
    assert.equal(logged.mailbox, `${server.baseUrl}/dev/mailbox?to=Ada%40Example.com`);
    const text = logs.text();
    for (const unlogged of ['tok_2', 'tok_1', '/auth/magic-link-landing', magic.subject])
      assert.ok(!text.includes(unlogged), `${unlogged} is not in the log`);
    assert.equal(logged.level, 30, 'at info level');
  });

  it('shows the messages on a page, with user content escaped and the HTML part sandboxed', async () => {
    await send({
      to: 'mallory@example.com',
      subject: '<script>alert(1)</script> Welcome',
      text: 'Hello <b>there</b> https://example.org/x',
      html: '<p onclick="alert(2)">Hello</p><script>alert(3)</script><a href="https://example.org/x">x</a>',
      kind: 'test',
    });
    const response = await fetch(`${server.baseUrl}/dev/mailbox`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /script-src/, 'no script may run: default-src none covers scripts');
    const page = await response.text();
    assert.ok(page.includes('&lt;script&gt;alert(1)&lt;/script&gt; Welcome'), 'the subject shown as text');
    assert.ok(page.includes('Reset your Main Street Funding password'), 'older messages listed');
    assert.doesNotMatch(page, /<script/i);
    assert.doesNotMatch(page, /<p onclick/i);
    const iframe = /<iframe[^>]*>/.exec(page)?.[0] ?? '';
    assert.match(iframe, /sandbox="allow-popups allow-popups-to-escape-sandbox"/);
    assert.match(iframe, /srcdoc="[^"]*&lt;p onclick=&quot;alert\(2\)&quot;&gt;/);
    assert.ok(page.includes('<a href="https://example.org/x" target="_blank" rel="noopener noreferrer">'));

    const everyone = (await (
      await fetch(`${server.baseUrl}/dev/mailbox/messages`)
    ).json()) as MailboxMessage[];
    const older = everyone.at(-1)!;
    const selected = await (await fetch(`${server.baseUrl}/dev/mailbox?id=${older.id}`)).text();
    assert.match(selected, new RegExp(`<h1 class="message__subject">${older.subject}</h1>`));
  });

  it('is not the portal: unknown /dev paths are 404', async () => {
    assert.equal((await fetch(`${server.baseUrl}/dev/nothing`)).status, 404);
  });
});

// Production needs PostgreSQL (the configuration refuses anything else), so this runs with TEST_DATABASE_URL.
describe('mail in production', { skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL' }, () => {
  let server: TestServer;
  let sink: SmtpSink;
  const logs = logCollector();
  let local: string;

  before(async () => {
    sink = await startSmtpSink();
    const url = new URL(sink.url);
    url.username = 'portal';
    url.password = 'relay-secret';
    server = await startTestServer(
      'postgres',
      {
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://portal.lender.example',
        DATABASE_URL: process.env.TEST_DATABASE_URL!,
        SMTP_URL: url.toString(),
        LOG_LEVEL: 'info',
        ...TEST_ACH_SETTINGS,
      },
      { logStream: logs.stream },
    );
    local = `http://127.0.0.1:${new URL(server.server.address).port}`;
  });
  after(async () => {
    await server?.close();
    await sink?.close();
  });

  it('has no dev mailbox', async () => {
    assert.equal((await fetch(`${local}/dev/mailbox`)).status, 404);
    assert.equal((await fetch(`${local}/dev/mailbox/messages?to=ada@example.com`)).status, 404);
  });

  it('delivers through SMTP, and logs neither the address nor the link', async () => {
    const { mail, db } = server.server;
    const message = mail.templates.magicLinkEmail({
      firstName: 'Grace',
      signInUrl: '/auth/magic-link-landing/SECRET-TOKEN',
      expiresInMinutes: 15,
    });
    const idempotencyKey = `magic-link:${randomUUID()}`;
    await db
      .transaction()
      .execute((trx) => mail.enqueue({ to: 'grace.hopper@example.com', idempotencyKey, ...message }, trx));
    mail.nudge();
    const received = await untilAfter('delivered', mail.afterPass, () =>
      sink.received.find((m) => m.idempotencyKey === idempotencyKey),
    );
    assert.equal(received.user, 'portal', 'signed in with the credentials of SMTP_URL');
    assert.equal(received.headers.get('from'), 'Main Street Funding <no-reply@portal.lender.example>');
    assert.ok(received.text?.includes('https://portal.lender.example/auth/magic-link-landing/SECRET-TOKEN'));

    const delivered = await untilAfter('logged', mail.afterPass, () =>
      logs.lines.find((l) => l.msg === 'mail: delivered'),
    );
    assert.equal(delivered.to, 'g***@example.com');
    assert.equal(delivered.kind, 'magic-link');
    assert.equal(delivered.attempt, 1);
    const text = logs.text();
    assert.ok(!text.includes('grace.hopper@example.com'));
    assert.ok(!text.includes('SECRET-TOKEN'));
    assert.ok(!text.includes('relay-secret'));
  });
});
