import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  LINK_SENT_MESSAGE,
  PASSWORD_RULES,
  PASSWORDS_DO_NOT_MATCH,
  authEndpoints,
  routes,
} from '@customer-core/contracts';
import type { Page } from 'playwright-core';
import { assertAccessible } from './support/accessibility.js';
import { collectPageErrors, screenshot } from './support/browser.js';
import {
  INVALID_LINK,
  LINK_LIMITS_ENV,
  lenderName,
  onPath,
  requestLink,
  withText,
} from './support/getting-back-in.js';
import { inbox, linkPath, waitForMail } from './support/mailbox.js';
import { DEMO, openPortal, submitSignIn, type Portal } from './support/portal.js';

// Forgot password and password reset, against the real server and its dev mailbox. The server is this
// file's own (its own database): the reset changes the demo borrower's password.

const PASSWORD_CHANGED = 'Your password has been changed. Sign in with your new password.';
const NEW_PASSWORD = 'Fresh-Start-2026';

const rule = (code: string) => PASSWORD_RULES.find((r) => r.code === code)!;
const ruleMet = (page: Page, code: string) =>
  page.getByTestId(`password-rule-${code}`).getAttribute('data-met');

describe('forgot password and password reset (browser)', () => {
  let portal: Portal;
  before(async () => {
    portal = await openPortal(LINK_LIMITS_ENV);
  });
  after(() => portal?.close());

  it('asks for the address with the sign-in rules, and confirms the same way for any address', async () => {
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    await page.goto(routes.signIn.path);
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    assert.equal(await page.title(), `Reset your password | ${await lenderName(page)}`);
    await assertAccessible(page, 'forgot password');
    await screenshot(page, 'forgot-password');

    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Email is required.').waitFor();
    const email = page.getByLabel('Email');
    assert.equal(await email.getAttribute('aria-invalid'), 'true');
    assert.equal(await email.getAttribute('aria-describedby'), 'forgot-password-email-error');
    await assertAccessible(page, 'forgot password with an error');
    await email.fill('dana@');
    await page.getByText('Invalid email address.').waitFor();
    await screenshot(page, 'forgot-password-error');

    const unknown = 'nobody-here@example.com';
    await email.fill(unknown);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const sent = page.getByTestId('forgot-password-sent');
    await sent.getByRole('heading', { name: 'Check your email' }).waitFor();
    await sent.getByText(LINK_SENT_MESSAGE).waitFor();
    await sent.getByText(/30 minutes/).waitFor();
    await sent.getByText(/spam/).waitFor();
    assert.equal(
      await sent.getByRole('link', { name: 'Back to sign in' }).getAttribute('href'),
      routes.signIn.path,
    );
    // The new view is announced: the focus is on its heading.
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Check your email');
    await assertAccessible(page, 'forgot password confirmation');
    await screenshot(page, 'forgot-password-sent');
    const unknownConfirmation = await sent.innerText();

    // The demo borrower gets the very same confirmation (no enumeration), and the e-mail.
    const other = (await portal.newPage()).page;
    await requestLink(other, routes.forgotPassword.path, DEMO.email, 'Send reset link');
    assert.equal(await other.getByTestId('forgot-password-sent').innerText(), unknownConfirmation);
    const mail = await waitForMail(portal.baseUrl, DEMO.email);
    assert.match(mail.subject, /reset/i);
    assert.deepEqual(await inbox(portal.baseUrl, unknown), [], 'nothing is sent to an unknown address');

    // "Send another link" goes back to the form, the address kept.
    await other.getByRole('button', { name: 'Send another link' }).click();
    assert.equal(await other.getByLabel('Email').inputValue(), DEMO.email);
    assert.deepEqual(errors, []);
  });

  it('shows a dismissible banner, not a status, when the call fails', async () => {
    const { page } = await portal.newPage();
    await page.route(`**${authEndpoints.passwordReset.path}`, (route) =>
      route.fulfill({ status: 503, contentType: 'text/html', body: '<h1>503 Service Unavailable</h1>' }),
    );
    await page.goto(routes.forgotPassword.path);
    await page.getByLabel('Email').fill(DEMO.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const banner = page.getByRole('alert').filter(withText('We couldn’t send the reset link just now.'));
    await banner.waitFor();
    assert.doesNotMatch(await banner.innerText(), /503|Service Unavailable/);
    await assertAccessible(page, 'forgot password with a banner');
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await banner.waitFor({ state: 'detached' });
  });

  it('sets a new password from the emailed link: live rules, every message, then sign-in with it only', async () => {
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    const before = (await inbox(portal.baseUrl, DEMO.email)).length;
    await requestLink(page, routes.forgotPassword.path, DEMO.email, 'Send reset link');
    const resetPath = linkPath(
      await waitForMail(portal.baseUrl, DEMO.email, before + 1),
      '/auth/password-reset/',
    );

    await page.goto(resetPath);
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    const password = page.getByLabel('New password', { exact: true });
    const confirm = page.getByLabel('Confirm new password');
    const save = page.getByRole('button', { name: 'Save new password' });
    for (const { code } of PASSWORD_RULES) assert.equal(await ruleMet(page, code), 'false');
    assert.equal(await password.getAttribute('aria-describedby'), 'password-reset-password-rules');
    await assertAccessible(page, 'password reset');
    await screenshot(page, 'password-reset');

    // Both fields required.
    await save.click();
    await page.getByText('Password is required.').waitFor();
    await page.getByText('Please confirm your password.').waitFor();
    assert.equal(
      await password.getAttribute('aria-describedby'),
      'password-reset-password-error password-reset-password-rules',
    );
    await assertAccessible(page, 'password reset with errors');

    // The checklist follows the typing, and says what changed to screen readers.
    const live = page.getByTestId('password-checklist-live');
    assert.equal(await live.getAttribute('aria-live'), 'polite');
    await password.pressSequentially('abcdefgh');
    assert.equal(await ruleMet(page, 'length'), 'true');
    assert.equal(await ruleMet(page, 'case'), 'false');
    assert.equal(await live.textContent(), `Requirement met: ${rule('length').label}.`);
    await password.press('Backspace');
    assert.equal(await ruleMet(page, 'length'), 'false');
    assert.equal(await live.textContent(), `Requirement not met: ${rule('length').label}.`);
    // Not by colour alone: each rule says in words whether it is met.
    assert.match((await page.getByTestId('password-rule-length').textContent()) ?? '', /^Not met yet: /);

    // Each rule's own message under the field, then the match.
    const passwordError = page.getByTestId('password-reset-password-error');
    const confirmError = page.getByTestId('password-reset-confirm-password-error');
    await password.fill('Short1');
    await page.getByText(rule('length').message).waitFor();
    await password.fill('alllowercase1');
    assert.equal(await passwordError.innerText(), rule('case').message);
    await password.fill('NoNumbersHere');
    assert.equal(await passwordError.innerText(), rule('number').message);
    await password.fill(NEW_PASSWORD);
    await passwordError.waitFor({ state: 'detached' });
    for (const { code } of PASSWORD_RULES) assert.equal(await ruleMet(page, code), 'true');
    assert.equal(await live.textContent(), 'All password requirements are met.');
    await confirm.fill(`${NEW_PASSWORD}x`);
    await save.click();
    await confirmError.filter(withText(PASSWORDS_DO_NOT_MATCH)).waitFor();
    assert.equal(await confirm.getAttribute('aria-invalid'), 'true');
    await screenshot(page, 'password-reset-errors');

    // Show / hide on each field.
    await page.getByRole('button', { name: 'Show password' }).first().click();
    assert.equal(await password.getAttribute('type'), 'text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    assert.equal(await password.getAttribute('type'), 'password');

    // A too-common password: the server's message under the field, the link still unspent.
    await password.fill('Password1');
    await confirm.fill('Password1');
    await save.click();
    await passwordError.filter(withText('This password is too common. Choose another.')).waitFor();
    assert.equal(await password.getAttribute('aria-invalid'), 'true');
    await assertAccessible(page, 'password reset with the server message');
    await screenshot(page, 'password-reset-too-common');

    await password.fill(NEW_PASSWORD);
    await confirm.fill(NEW_PASSWORD);
    await save.click();
    await page.waitForURL(onPath(routes.signIn.path));
    const notice = page.getByRole('status').filter(withText(PASSWORD_CHANGED));
    await notice.waitFor();
    await assertAccessible(page, 'sign-in with the password-changed notice');
    await screenshot(page, 'sign-in-password-changed');

    // The old password is refused, the new one signs in.
    await submitSignIn(page, DEMO.email, DEMO.password);
    await page.getByRole('alert').filter(withText('User could not be authenticated.')).waitFor();
    await submitSignIn(page, DEMO.email, NEW_PASSWORD);
    await page.waitForURL(onPath(routes.dashboard.path), { timeout: 20_000 });
    await page.getByRole('heading', { name: new RegExp(DEMO.firstName) }).waitFor();

    // The link worked once.
    const again = (await portal.newPage()).page;
    // Opened again, it says so on arrival: no form to fill in first.
    await again.goto(resetPath);
    await again.getByText(INVALID_LINK).waitFor();
    assert.equal(await again.getByLabel('New password', { exact: true }).count(), 0);
    assert.equal(
      await again.getByRole('link', { name: 'Request a new reset link' }).getAttribute('href'),
      routes.forgotPassword.path,
    );
    await assertAccessible(again, 'password reset, used link');
    await screenshot(again, 'password-reset-invalid-link');
    assert.deepEqual(errors, []);
  });

  it('says the same of a link it never sent, on arrival', async () => {
    const { page } = await portal.newPage();
    await page.goto(routes.passwordReset.href({ token: 'expired-or-made-up-token' }));
    await page.getByRole('heading', { name: 'This link can’t be used' }).waitFor();
    assert.equal(await page.getByLabel('New password', { exact: true }).count(), 0);
    await screenshot(page, 'password-reset-unknown-link');
    await page.getByText(INVALID_LINK).waitFor();
    await page.getByRole('link', { name: 'Request a new reset link' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
  });
});
