import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { mailTemplates, retryDelayMs } from '../src/mail/index.js';
import { extractLinks } from '../src/mail/links.js';
import { maskEmail, redactForLog } from '../src/mail/redaction.js';
import { TEST_ACH_SETTINGS, TEST_SECRETS_KEYS } from '../testing/index.js';

const brand = {
  lenderName: 'Main Street Funding',
  publicUrl: 'https://portal.lender.example',
  supportPhone: '(800) 555-0142',
};
const templates = mailTemplates(brand);
const XSS = '<img src=x onerror=alert(1)>';

describe('e-mail rendering', () => {
  it('escapes a first name in the HTML part and keeps it as typed in the text part', () => {
    const mail = templates.passwordResetEmail({
      firstName: XSS,
      resetUrl: '/auth/password-reset/tok_123',
      expiresInMinutes: 30,
    });
    assert.ok(!mail.html.includes('<img'), 'no markup from the name');
    assert.ok(mail.html.includes('Hi &lt;img src=x onerror=alert(1)&gt;,'));
    assert.ok(mail.text.includes(`Hi ${XSS},`));
    assert.ok(!mail.subject.includes('<'), 'the subject carries no user input');
  });

  it('collapses a name with line breaks onto one line', () => {
    const mail = templates.magicLinkEmail({
      firstName: 'Ada\r\nBcc: eve@example.com',
      signInUrl: '/auth/magic-link-landing/x',
      expiresInMinutes: 15,
    });
    assert.ok(mail.text.includes('Hi Ada Bcc: eve@example.com,'));
  });

  it('escapes every value of renderEmail', () => {
    const { html } = templates.renderEmail({
      preheader: '"quoted" & <b>',
      heading: '<h1>Heading</h1>',
      paragraphs: ['<script>alert(1)</script>'],
      action: { label: '<i>Go</i>', url: '/a?x=1&y="2"' },
      footnote: "It's <small>",
    });
    assert.ok(!/<script|<b>|<i>|<small>|<h1>Heading/.test(html));
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(html.includes('href="https://portal.lender.example/a?x=1&amp;y=%222%22"'));
  });

  it('links only to absolute URLs on the public origin', () => {
    const mail = templates.magicLinkEmail({
      firstName: 'Ada',
      signInUrl: '/auth/magic-link-landing/tok_abc',
      expiresInMinutes: 15,
    });
    const links = extractLinks(mail.text, mail.html);
    assert.deepEqual(links, [
      'https://portal.lender.example/auth/magic-link-landing/tok_abc',
      'https://portal.lender.example/',
    ]);
    assert.ok(mail.text.includes('Sign in:\nhttps://portal.lender.example/auth/magic-link-landing/tok_abc'));
  });

  it('absoluteUrl refuses anything off the public origin', () => {
    const { absoluteUrl } = templates;
    assert.equal(absoluteUrl('/auth/login?x=1#y'), 'https://portal.lender.example/auth/login?x=1#y');
    assert.equal(absoluteUrl('https://portal.lender.example/auth/x'), 'https://portal.lender.example/auth/x');
    for (const bad of [
      'https://evil.example/auth/x',
      '//evil.example/auth/x',
      '/\\evil.example/auth/x',
      'javascript:alert(1)',
      'http://portal.lender.example/auth/x',
      'https://portal.lender.example.evil.example/',
      'https://portal.lender.example:8443/',
      'https://someone@portal.lender.example/',
      'auth/x',
      '',
    ]) {
      assert.throws(() => absoluteUrl(bad), Error, bad);
    }
    assert.throws(() =>
      templates.passwordResetEmail({ resetUrl: 'https://evil.example/reset', expiresInMinutes: 30 }),
    );
  });

  it('keeps a path prefix of the public URL', () => {
    const { absoluteUrl } = mailTemplates({ ...brand, publicUrl: 'https://lender.example/portal' });
    assert.equal(absoluteUrl('/auth/x'), 'https://lender.example/portal/auth/x');
    assert.throws(() => absoluteUrl('https://lender.example/other'));
    assert.throws(() => absoluteUrl('/../other'));
  });

  it('says who sent it, why, when it expires and what to do if it was not you', () => {
    const reset = templates.passwordResetEmail({ firstName: null, resetUrl: '/r/1', expiresInMinutes: 60 });
    assert.equal(reset.kind, 'password-reset');
    assert.equal(reset.subject, 'Reset your Main Street Funding password');
    assert.match(reset.text, /^Reset your password\n\nHello,\n\n/);
    assert.match(reset.text, /expires in 1 hour/);
    assert.match(reset.text, /Didn’t ask for this\?/);
    assert.match(reset.text, /\(800\) 555-0142/);
    assert.match(reset.html, /<html lang="en">/);

    const magic = templates.magicLinkEmail({ firstName: 'Ada', signInUrl: '/m/1', expiresInMinutes: 15 });
    assert.equal(magic.kind, 'magic-link');
    assert.equal(magic.subject, 'Your Main Street Funding sign-in link');
    assert.match(magic.text, /expires in 15 minutes/);
    assert.match(magic.html, /Sign in with one click\. The link expires in 15 minutes\./, 'preheader');
  });
});

describe('mail logging and retries', () => {
  it('masks addresses and drops links from what it logs', () => {
    assert.equal(maskEmail('jane.doe@example.com'), 'j***@example.com');
    assert.equal(
      redactForLog('550 <jane.doe@example.com> rejected; see https://portal.example/reset/tok'),
      '550 <j***@example.com> rejected; see [link]',
    );
  });

  it('backs off exponentially with full jitter, capped', () => {
    const schedule = { retryBaseMs: 1000, retryMaxMs: 10_000 };
    assert.equal(
      retryDelayMs(1, schedule, () => 0.5),
      500,
    );
    assert.equal(
      retryDelayMs(3, schedule, () => 0.5),
      2000,
    );
    assert.equal(
      retryDelayMs(8, schedule, () => 0.5),
      5000,
    );
    assert.equal(
      retryDelayMs(3, schedule, () => 0),
      0,
    );
    for (let i = 0; i < 100; i += 1) {
      const delay = retryDelayMs(2, schedule);
      assert.ok(delay >= 0 && delay < 2000);
    }
  });
});

describe('mail configuration', () => {
  it('uses the dev mailbox by default, from the lender at no-reply@ the public host', () => {
    const { mail } = loadConfig({ PUBLIC_URL: 'https://portal.lender.example' });
    assert.equal(mail.smtpUrl, null);
    assert.deepEqual(mail.from, { name: 'Main Street Funding', address: 'no-reply@portal.lender.example' });
    assert.equal(mail.pollIntervalMs, 1000);
    assert.equal(mail.maxAttempts, 8);
  });

  it('takes SMTP_URL and MAIL_FROM', () => {
    const { mail } = loadConfig({
      SMTP_URL: 'smtps://user:secret@smtp.lender.example:465',
      MAIL_FROM: 'Main Street Funding <no-reply@lender.example>',
      MAIL_POLL_INTERVAL_MS: '250',
      MAIL_MAX_ATTEMPTS: '5',
    });
    assert.equal(mail.smtpUrl, 'smtps://user:secret@smtp.lender.example:465');
    assert.deepEqual(mail.from, { name: 'Main Street Funding', address: 'no-reply@lender.example' });
    assert.equal(mail.pollIntervalMs, 250);
    assert.equal(mail.maxAttempts, 5);
    assert.deepEqual(loadConfig({ MAIL_FROM: '"Lender, Inc." <hello@lender.example>' }).mail.from, {
      name: 'Lender, Inc.',
      address: 'hello@lender.example',
    });
    assert.deepEqual(loadConfig({ LENDER_NAME: 'Acme', MAIL_FROM: 'hello@acme.example' }).mail.from, {
      name: 'Acme',
      address: 'hello@acme.example',
    });
  });

  it('refuses bad mail settings, and production without SMTP_URL', () => {
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        if (error instanceof ConfigError) return error.problems.map((p) => p.split(':')[0]);
        throw error;
      }
    };
    assert.deepEqual(problemsOf({ SMTP_URL: 'http://smtp.example' }), ['SMTP_URL']);
    assert.deepEqual(problemsOf({ MAIL_FROM: 'not an address' }), ['MAIL_FROM']);
    assert.deepEqual(problemsOf({ MAIL_POLL_INTERVAL_MS: '0' }), ['MAIL_POLL_INTERVAL_MS']);
    const production = {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://portal.lender.example',
      DATABASE_URL: 'postgres://app@db/portal',
      SECRETS_KEYS: TEST_SECRETS_KEYS,
      ...TEST_ACH_SETTINGS,
    };
    assert.deepEqual(problemsOf(production), ['SMTP_URL']);
    assert.deepEqual(problemsOf({ ...production, SMTP_URL: 'smtp://relay.internal:587' }), []);
  });
});
