import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { authEndpoints, routes } from '@customer-core/contracts';
import { borrowerRepository } from '../src/borrowers/borrower-repository.js';
import { redactPath, redactUrl } from '../src/http/redaction.js';
import type { MailTemplates } from '../src/mail/index.js';
import { redactForLog } from '../src/mail/redaction.js';
import { startTestServer, type TestServer, untilAfter } from '../testing/index.js';
import { authn, createUser, mailFor } from './support/links.js';
import { logCollector } from './support/mail.js';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.js';

describe('log redaction', () => {
  it('keeps query names and drops their values', () => {
    assert.equal(
      redactUrl('/oauth2/default/v1/authorize?client_id=x&sessionToken=secret123&code=abc'),
      '/oauth2/default/v1/authorize?client_id=[redacted]&sessionToken=[redacted]&code=[redacted]',
    );
    assert.equal(redactUrl('/api/auth/logout'), '/api/auth/logout');
  });

  it('hides one-time tokens carried in a page path', () => {
    assert.equal(
      redactPath('/auth/password-reset/tok_123?x=1'),
      '/auth/password-reset/[redacted]?x=[redacted]',
    );
    assert.equal(redactPath('/auth/magic-link-landing/abc'), '/auth/magic-link-landing/[redacted]');
    assert.equal(redactPath('/auth/login'), '/auth/login');
  });

  it('hides them in every spelling of the path that reaches the server', () => {
    const token = 'tok_SECRET_123';
    for (const path of [
      `//auth/password-reset/${token}`,
      `/AUTH/password-reset/${token}`,
      `/Auth/Password-Reset/${token}`,
      `/auth//password-reset/${token}`,
      `/auth/./password-reset/${token}`,
      `/x/../auth/password-reset/${token}`,
      `/auth\\password-reset\\${token}`,
      `/%61uth/password-reset/${token}`,
      `/auth%2Fpassword-reset/${token}`,
      `/auth%252Fpassword-reset/${token}`,
      `/auth/password-reset/${token}/`,
      `/auth/password-reset/${token};x`,
      `/auth/password-reset/%${token}`,
      `///user-registration/${token}`,
      `/APP/email-verification/${token}`,
      `/ui/direct-app//email-verification/${token}`,
      `/auth/MAGIC-link-landing/${token}#x`,
    ]) {
      const logged = redactPath(path);
      assert.ok(!logged.includes('SECRET'), `${path} -> ${logged}`);
      assert.match(logged, /\[redacted\]/, path);
    }
    assert.ok(
      !redactForLog(`refused: /AUTH//password-reset/${token} and //user-registration/${token}`).includes(
        'SECRET',
      ),
    );
  });
});

/** One request with exactly this path (fetch would normalise it). */
function rawRequest(baseUrl: string, method: string, path: string, body?: unknown) {
  const { hostname, port } = new URL(baseUrl);
  return new Promise<number>((resolve, reject) => {
    const request = httpRequest(
      {
        hostname,
        port,
        method,
        path,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const canary = (kind: string) => `CANARY${kind}${randomBytes(12).toString('hex')}`;

// Each page whose path carries a one-time token, as the route's path without its ':token'.
const TOKEN_PAGES = Object.values(routes)
  .map((route) => route.path)
  .filter((path) => path.endsWith('/:token'))
  .map((path) => path.slice(0, -'/:token'.length));

describe('no token in the log, whatever the request', () => {
  let server: TestServer;
  let url: string;
  const logs = logCollector();
  const SERVICE_SECRET = `logging-test-${'s'.repeat(32)}`;

  before(async () => {
    server = await startTestServer(
      'pglite',
      { LOG_LEVEL: 'trace', SERVICE_CREDENTIALS: `servicing:lookup-tokens:${SERVICE_SECRET}` },
      { logStream: logs.stream },
    );
    url = server.baseUrl;
  });
  after(() => server?.close());

  const assertNotLogged = (secrets: string[]) => {
    const text = logs.text();
    assert.ok(text.length > 0, 'something was logged');
    for (const secret of secrets) {
      assert.ok(!text.includes(secret), `${secret.slice(0, 20)}… is not in the log`);
    }
  };

  it('page paths with a token, in any spelling: request logs', async () => {
    assert.deepEqual(TOKEN_PAGES.length, 7, TOKEN_PAGES.join(', '));
    const canaries: string[] = [];
    for (const page of TOKEN_PAGES) {
      const token = canary(page.replace(/\W/g, ''));
      canaries.push(token);
      const upper = page.toUpperCase();
      for (const path of [
        `${page}/${token}`,
        `/${page}/${token}`,
        `${upper}/${token}`,
        `${page.replace('/', '//')}/${token}`,
        `/x/..${page}/${token}?q=1`,
        `${page}/./${token}`,
        `/${page.slice(1).replaceAll('/', '%2F')}/${token}`,
        `/${page.slice(1).replaceAll('/', '%252F')}/${token}`,
        `/${page.slice(1).replaceAll('/', '\\')}\\${token}`,
      ]) {
        for (const method of ['GET', 'POST', 'HEAD']) {
          const status = await rawRequest(url, method, path, method === 'POST' ? {} : undefined);
          assert.ok(status < 500, `${method} ${path}: ${status}`);
        }
      }
    }
    assertNotLogged(canaries);
    assert.ok(logs.text().includes('"/auth/password-reset/[redacted]"'), 'the requests were logged');
  });

  it('lookup tokens and IdP session tokens: request logs', async () => {
    const lookup = canary('lookup');
    const session = canary('session');
    await rawRequest(url, 'POST', authEndpoints.lookupTokenExchange.path, { token: lookup });
    await rawRequest(url, 'GET', `${authEndpoints.lookupTokenExchange.path}?token=${lookup}`);
    await rawRequest(
      url,
      'GET',
      `/oauth2/default/v1/authorize?client_id=customer-portal&response_type=code&sessionToken=${session}`,
    );
    await rawRequest(url, 'GET', `//oauth2/default/v1/authorize?sessionToken=${session}`);
    await rawRequest(url, 'GET', `/login/sessionCookieRedirect?token=${session}`);

    // Real ones too: a lookup token minted and exchanged, a session token from a sign-in.
    const user = await createUser(server);
    const borrower = await borrowerRepository(server.server.db).ensureByEmail({
      email: user.login,
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    const minted = await fetch(`${url}${authEndpoints.mintLookupToken.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVICE_SECRET}` },
      body: JSON.stringify({ borrowerId: borrower.id }),
    });
    assert.equal(minted.status, 200);
    const { token: realLookup } = (await minted.json()) as { token: string };
    await rawRequest(url, 'POST', authEndpoints.lookupTokenExchange.path, { token: realLookup });
    const signedIn = await authn(url, user.login, user.password);
    const { sessionToken } = (await signedIn.json()) as { sessionToken: string };
    assert.ok(sessionToken);
    await rawRequest(
      url,
      'GET',
      `/oauth2/default/v1/authorize?client_id=customer-portal&response_type=code&sessionToken=${sessionToken}`,
    );
    assertNotLogged([lookup, session, realLookup, sessionToken]);
  });

  it('e-mailed links of every kind: mail logs (dev mailbox) and request logs', async () => {
    const { mail } = server.server;
    const links = {
      reset: canary('reset'),
      magic: canary('magic'),
      registration: canary('registration'),
      verification: canary('verification'),
    };
    const to = `canary.${Date.now()}@example.com`;
    const messages = [
      mail.templates.passwordResetEmail({
        firstName: 'Ada',
        resetUrl: `${url}${routes.passwordReset.href({ token: links.reset })}`,
        expiresInMinutes: 30,
      }),
      mail.templates.magicLinkEmail({
        firstName: 'Ada',
        signInUrl: `${url}${routes.magicLinkLanding.href({ token: links.magic })}`,
        expiresInMinutes: 10,
      }),
      mail.templates.invitationEmail({
        firstName: 'Ada',
        registrationUrl: `${url}${routes.userRegistration.href({ token: links.registration })}`,
        expiresInMinutes: 7 * 24 * 60,
      }),
      mail.templates.emailVerificationEmail({
        verificationUrl: `${url}${routes.emailVerification.href({ token: links.verification })}`,
        expiresInMinutes: 24 * 60,
      }),
    ];
    for (const [i, message] of messages.entries()) {
      await mail.enqueue({ ...message, to, idempotencyKey: `canary:${links.reset}:${i}` });
    }
    mail.nudge();
    const delivered = await mailFor(url, to, messages.length);
    for (const token of Object.values(links)) {
      assert.ok(
        delivered.some((m) => m.links.some((link) => link.includes(token))),
        'the link was delivered',
      );
    }
    // The real flows' links too (reset and sign-in link of a real user).
    const user = await createUser(server);
    for (const path of [authEndpoints.passwordReset.path, authEndpoints.sendMagicLinkEmail.path]) {
      await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: user.login }),
      });
    }
    const real = (await mailFor(url, user.login, 2)).flatMap((m) =>
      m.links.map((link) => new URL(link).pathname.split('/').pop()!).filter((t) => t.length >= 40),
    );
    assert.equal(real.length, 2);
    assert.ok(
      logs.lines.some((line) => line.component === 'mail' || String(line.msg).startsWith('dev mailbox')),
      'the dev mailbox logged its deliveries',
    );
    assertNotLogged([...Object.values(links), ...real]);
  });
});

describe('no code, token or link in the mail logs, whatever the transport', () => {
  let sink: SmtpSink;
  const transports: Array<{ name: string; server: TestServer; logs: ReturnType<typeof logCollector> }> = [];

  before(async () => {
    sink = await startSmtpSink();
    for (const [name, env] of [
      ['dev mailbox', {}],
      ['SMTP', { SMTP_URL: sink.url }],
    ] as const) {
      const logs = logCollector();
      const server = await startTestServer(
        'pglite',
        { LOG_LEVEL: 'trace', ...env },
        { logStream: logs.stream },
      );
      transports.push({ name, server, logs });
    }
  });
  after(async () => {
    for (const { server } of transports) await server.close();
    await sink?.close();
  });

  /** Every message that carries a code or a one-time link, with canaries for both. */
  function everyMessageWithASecret(templates: MailTemplates, url: string) {
    const tokens = {
      reset: canary('reset'),
      magic: canary('magic'),
      registration: canary('registration'),
      verification: canary('verification'),
      emailChange: canary('emailchange'),
      unrecognized: canary('unrecognized'),
    };
    const code = String(randomInt(100_000, 1_000_000));
    const messages = [
      templates.factorCodeEmail({ firstName: 'Ada', code, expiresInMinutes: 5, purpose: 'sign-in' }),
      templates.factorCodeEmail({ firstName: 'Ada', code, expiresInMinutes: 5, purpose: 'enrol' }),
      templates.passwordResetEmail({
        firstName: 'Ada',
        resetUrl: `${url}${routes.passwordReset.href({ token: tokens.reset })}`,
        expiresInMinutes: 30,
      }),
      templates.magicLinkEmail({
        firstName: 'Ada',
        signInUrl: `${url}${routes.magicLinkLanding.href({ token: tokens.magic })}`,
        expiresInMinutes: 10,
      }),
      templates.invitationEmail({
        firstName: 'Ada',
        registrationUrl: `${url}${routes.userRegistration.href({ token: tokens.registration })}`,
        expiresInMinutes: 7 * 24 * 60,
      }),
      templates.emailVerificationEmail({
        verificationUrl: `${url}${routes.emailVerification.href({ token: tokens.verification })}`,
        expiresInMinutes: 24 * 60,
      }),
      templates.emailChangeLinkEmail({
        firstName: 'Ada',
        confirmUrl: `${url}${routes.emailChange.href({ token: tokens.emailChange })}`,
        expiresInMinutes: 30,
      }),
      templates.newSignInEmail({
        firstName: 'Ada',
        device: 'Chrome on Windows',
        signedInAt: new Date(),
        approximateAddress: '198.51.100.0/24',
        reportUrl: `${url}${routes.unrecognizedSignIn.href({ token: tokens.unrecognized })}`,
        expiresInMinutes: 7 * 24 * 60,
      }),
    ];
    return { messages, tokens: Object.values(tokens), code };
  }

  it('logs each message by its kind and id only: no subject, code, token or link', async () => {
    for (const { name, server, logs } of transports) {
      const { mail } = server.server;
      const { messages, tokens, code } = everyMessageWithASecret(mail.templates, server.baseUrl);
      const to = `secrets.${randomBytes(6).toString('hex')}@example.com`;
      for (const [i, message] of messages.entries())
        await mail.enqueue({ ...message, to, idempotencyKey: `secrets:${to}:${i}` });
      mail.nudge();
      const delivered = await untilAfter(
        `${name}: every message delivered and logged`,
        mail.afterPass,
        () => {
          const lines = logs.lines.filter((line) => line.msg === 'mail: delivered' && line.to === to);
          return lines.length === messages.length && lines;
        },
      );
      assert.deepEqual(
        delivered.map((line) => line.kind).sort(),
        messages.map((message) => message.kind).sort(),
        `${name}: each delivery logged with its kind`,
      );

      const text = logs.text();
      for (const token of tokens) assert.ok(!text.includes(token), `${name}: ${token.slice(0, 20)}… logged`);
      assert.doesNotMatch(text, new RegExp(`(?<!\\d)${code}(?!\\d)`), `${name}: the code is logged`);
      for (const { subject } of messages) assert.ok(!text.includes(subject), `${name}: "${subject}" logged`);
      for (const page of TOKEN_PAGES)
        assert.ok(!text.toLowerCase().includes(page.toLowerCase()), `${name}: a link to ${page} logged`);
    }
    assert.equal(sink.received.length, 8, 'SMTP received every message');
  });

  it('logs a relay’s refusal without the words of the message it quotes', async () => {
    const { server, logs } = transports.find(({ name }) => name === 'SMTP')!;
    const { mail } = server.server;
    const code = String(randomInt(100_000, 1_000_000));
    const message = mail.templates.factorCodeEmail({ code, expiresInMinutes: 5, purpose: 'sign-in' });
    // A content filter that quotes what it refused.
    sink.refuseMessage = (received) => ({ code: 451, text: `Held for review: "${received.subject}"` });
    try {
      const to = `refused.${randomBytes(6).toString('hex')}@example.com`;
      await mail.enqueue({ ...message, to, idempotencyKey: `refused:${to}` });
      mail.nudge();
      const refused = await untilAfter('the refusal logged', mail.afterPass, () =>
        logs.lines.find((line) => line.to === to && line.status === 'pending'),
      );
      assert.match(String(refused.error), /Held for review/, 'the reason is logged');
      const text = logs.text();
      assert.doesNotMatch(text, new RegExp(`(?<!\\d)${code}(?!\\d)`), 'the code is logged');
      assert.ok(!text.includes(message.subject), 'the subject is logged');
    } finally {
      sink.refuseMessage = () => null;
    }
  });
});
