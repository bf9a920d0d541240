import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { routes } from '@customer-core/contracts';
import { addBorrower } from '@customer-core/api/testing';
import { collectPageErrors } from './support/browser.js';
import { openAccountRow } from './support/account.js';
import { requestLink } from './support/getting-back-in.js';
import { inbox, linkPath, waitForMail, waitForMailWithSubject } from './support/mailbox.js';
import {
  makeSessionStale,
  openPortal,
  type Portal,
  signInBySession,
  signOutFromMenu,
  submitSignIn,
} from './support/portal.js';
import { captureBothSizes, emailCodeIn } from './support/second-factor.js';

// Changing the sign-in email address from the account page: a stale sign-in is confirmed in place,
// the new address gets a link, and only the link makes the change.

const PASSWORD = 'Original-Pass-1';
const onPath = (path: string) => (url: URL) => url.pathname === path;

describe('changing the sign-in email address (browser)', () => {
  let portal: Portal;
  before(async () => {
    portal = await openPortal();
  });
  after(() => portal?.close());

  it('asks again for the password in place, and changes only after the link', async () => {
    const stamp = Date.now();
    const oldEmail = `ada.${stamp}@example.com`;
    const newEmail = `ada.new.${stamp}@example.org`;
    await addBorrower(portal.server, {
      login: oldEmail,
      password: PASSWORD,
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    // Signed in on a page of the portal's origin that is no portal page; the account page opens once
    // the session is older than the change allows, by its own auth_time.
    await signInBySession(portal, page, { email: oldEmail, path: '/healthz' });
    await makeSessionStale(page, portal.server);

    await page.goto(routes.account.path);
    const section = page.getByTestId('account-email');
    await section.getByRole('heading', { name: 'Email address' }).waitFor();
    await section.getByTestId('change-email-current').filter({ hasText: oldEmail }).waitFor();
    // (The account page at rest: swept in account.test.ts, at a desktop's size and a phone's.)

    await openAccountRow(section);
    const field = section.getByLabel('New email address');
    await field.fill(newEmail);
    const send = section.getByRole('button', { name: 'Send confirmation link' });
    await send.click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it\u2019s you' });
    await dialog.getByText('To change your email address, confirm it\u2019s you.').waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'step-up-password');
    await captureBothSizes(page, 'email-change-step-up');

    // (Escape, the focus given back and the address kept: apps/web/test/account.test.tsx.)
    await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Confirm and send link' }).click();
    await dialog.waitFor({ state: 'detached' });
    const notice = section.getByTestId('account-email-notice');
    await notice.filter({ hasText: `We\u2019ve sent a link to ${newEmail}.` }).waitFor();
    await captureBothSizes(page, 'email-change-sent');

    // Nothing has changed yet: the account still names the old address, which has heard nothing.
    const message = await waitForMail(portal.baseUrl, newEmail);
    await page.reload();
    await section.getByTestId('change-email-current').filter({ hasText: oldEmail }).waitFor();
    assert.deepEqual(await inbox(portal.baseUrl, oldEmail), []);

    // The link's page changes nothing on opening; Continue does.
    await page.goto(linkPath(message, '/ui/dashboard/account/email-change/'));
    await page.getByRole('heading', { level: 1, name: 'Confirm your new email address' }).waitFor();
    await captureBothSizes(page, 'email-change-link');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page
      .getByTestId('email-change-done')
      .filter({ hasText: `From now on, sign in with ${newEmail}.` })
      .waitFor();
    await captureBothSizes(page, 'email-change-done');

    const oldNotice = await waitForMail(portal.baseUrl, oldEmail);
    assert.match(oldNotice.subject, /sign-in email was changed$/);
    assert.match(oldNotice.text, /Call us right away at/);

    // Used once: the same link again is refused with what to do.
    await page.goto(linkPath(message, '/ui/dashboard/account/email-change/'));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByTestId('email-change-error').filter({ hasText: 'can\u2019t be used' }).waitFor();

    // The borrower now signs in with the new address.
    await signOutFromMenu(page);
    await page.waitForURL((url) => url.pathname === routes.signIn.path, { timeout: 20_000 });
    await submitSignIn(page, newEmail, PASSWORD);
    await page.waitForURL(onPath(routes.dashboard.path), { timeout: 20_000 });
    await page.goto(routes.account.path);
    await page.getByTestId('change-email-current').filter({ hasText: newEmail }).waitFor();
    assert.deepEqual(errors, []);
  });

  it('confirms a borrower signed in by link, who does not know their password, with an emailed code', async () => {
    const stamp = Date.now();
    const email = `lin.${stamp}@example.com`;
    const newEmail = `lin.new.${stamp}@example.org`;
    await addBorrower(portal.server, {
      login: email,
      password: PASSWORD,
      firstName: 'Lin',
      lastName: 'Link',
    });
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    // Signed in by the e-mailed link, as this borrower always does.
    await requestLink(page, routes.magicLink.path, email, 'Send sign-in link');
    const link = await waitForMail(portal.baseUrl, email);
    await page.goto(linkPath(link, '/auth/magic-link-landing/'));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(onPath(routes.dashboard.path), { timeout: 20_000 });

    await page.goto(routes.account.path);
    const section = page.getByTestId('account-email');
    await openAccountRow(section);
    await section.getByLabel('New email address').fill(newEmail);
    await section.getByRole('button', { name: 'Send confirmation link' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it\u2019s you' });
    const others = dialog.getByTestId('step-up-other-ways');
    await others.getByRole('heading', { name: 'Other ways to confirm it\u2019s you' }).waitFor();
    // Every way the borrower has, and none they lack: no passkey here.
    assert.equal(await others.getByRole('button', { name: 'Use a passkey' }).count(), 0);
    await dialog.getByLabel('Password', { exact: true }).waitFor();
    await captureBothSizes(page, 'step-up-other-ways');

    await others.getByRole('button', { name: 'Email me a code' }).click();
    await dialog.getByText(`We sent a 6\u2011digit code to ${email}.`, { exact: false }).waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'step-up-email-code');
    const message = await waitForMailWithSubject(portal.baseUrl, email, / confirmation code$/);
    const code = emailCodeIn(message.subject);
    assert.ok(code, message.subject);
    await captureBothSizes(page, 'step-up-email-code');

    // A wrong code is refused in the field, and the same code field takes the right one.
    await dialog.getByLabel('6-digit code').fill(code === '000000' ? '111111' : '000000');
    await dialog.getByRole('button', { name: 'Confirm and send link' }).click();
    await dialog
      .getByText('That code didn\u2019t work. Check your email and enter the newest code.')
      .waitFor();
    await captureBothSizes(page, 'step-up-email-code-wrong');
    await dialog.getByLabel('6-digit code').fill(code);
    await dialog.getByRole('button', { name: 'Confirm and send link' }).click();
    await dialog.waitFor({ state: 'detached' });
    await section
      .getByTestId('account-email-notice')
      .filter({ hasText: `We\u2019ve sent a link to ${newEmail}.` })
      .waitFor();
    await waitForMail(portal.baseUrl, newEmail);
    assert.deepEqual(errors, []);
  });
});
