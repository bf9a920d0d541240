import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authEndpoints, routes } from '@customer-core/contracts';
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

describe('forgot password and password reset (browser)', () => {
  let portal: Portal;
  before(async () => {
    portal = await openPortal(LINK_LIMITS_ENV);
  });
  after(() => portal?.close());

  it('asks for the address, confirms the same way for any address, and says when the call fails', async () => {
    // (The form's rules and messages, the confirmation's words, its focus and "Send another link", the
    // banner's words and its dismissal: apps/web/test/getting-back-in.test.tsx.)
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    await page.goto(routes.signIn.path);
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    assert.equal(await page.title(), `Reset your password | ${await lenderName(page)}`);
    await assertAccessible(page, 'forgot password');
    await screenshot(page, 'forgot-password');

    const send = page.getByRole('button', { name: 'Send reset link' });
    await send.click();
    await page.getByText('Email is required.').waitFor();
    await assertAccessible(page, 'forgot password with an error');
    await screenshot(page, 'forgot-password-error');

    const unknown = 'nobody-here@example.com';
    await page.getByLabel('Email').fill(unknown);
    await send.click();
    const sent = page.getByTestId('forgot-password-sent');
    await sent.getByRole('heading', { name: 'Check your email' }).waitFor();
    await assertAccessible(page, 'forgot password confirmation');
    await screenshot(page, 'forgot-password-sent');
    const unknownConfirmation = await sent.innerText();

    // The demo borrower gets the very same confirmation (no enumeration), and the e-mail.
    await page.getByRole('button', { name: 'Send another link' }).click();
    await page.getByLabel('Email').fill(DEMO.email);
    await send.click();
    assert.equal(await sent.innerText(), unknownConfirmation);
    const mail = await waitForMail(portal.baseUrl, DEMO.email);
    assert.match(mail.subject, /reset/i);
    assert.deepEqual(await inbox(portal.baseUrl, unknown), [], 'nothing is sent to an unknown address');

    // The call fails: a banner.
    await page.route(`**${authEndpoints.passwordReset.path}`, (route) =>
      route.fulfill({ status: 503, contentType: 'text/html', body: '<h1>503 Service Unavailable</h1>' }),
    );
    await page.getByRole('button', { name: 'Send another link' }).click();
    await send.click();
    await page.getByRole('alert').filter(withText('We couldn’t send the reset link just now.')).waitFor();
    await assertAccessible(page, 'forgot password with a banner');
    assert.deepEqual(errors, []);
  });

  it('sets a new password from the emailed link, then signs in with it only; the link works once', async () => {
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    const before = (await inbox(portal.baseUrl, DEMO.email)).length;
    await requestLink(page, routes.forgotPassword.path, DEMO.email, 'Send reset link');
    const resetPath = linkPath(
      await waitForMail(portal.baseUrl, DEMO.email, before + 1),
      '/auth/password-reset/',
    );

    // (The live checklist, each rule's message, the match, show / hide and the API's refusal of a
    // password, under the field: apps/web/test/getting-back-in.test.tsx.)
    await page.goto(resetPath);
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    const password = page.getByLabel('New password', { exact: true });
    const confirm = page.getByLabel('Confirm new password');
    const save = page.getByRole('button', { name: 'Save new password' });
    await assertAccessible(page, 'password reset');
    await screenshot(page, 'password-reset');

    await save.click();
    await page.getByText('Password is required.').waitFor();
    await assertAccessible(page, 'password reset with errors');
    await screenshot(page, 'password-reset-errors');

    // A too-common password: the API refuses it, and the link stays unspent. (The same state as the
    // messages above, swept there.)
    await password.fill('Password1');
    await confirm.fill('Password1');
    await save.click();
    await page
      .getByTestId('password-reset-password-error')
      .filter(withText('This password is too common. Choose another.'))
      .waitFor();

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

    // The link worked once: opened again, it says so on arrival, and leads to a new one.
    const again = (await portal.newPage()).page;
    await again.goto(resetPath);
    await again.getByText(INVALID_LINK).waitFor();
    assert.equal(await again.getByLabel('New password', { exact: true }).count(), 0);
    await assertAccessible(again, 'password reset, used link');
    await screenshot(again, 'password-reset-invalid-link');
    await again.getByRole('link', { name: 'Request a new reset link' }).click();
    await again.getByRole('heading', { name: 'Reset your password' }).waitFor();
    assert.deepEqual(errors, []);
  });
});
