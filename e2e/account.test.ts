import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { routes } from '@customer-core/contracts';
import type { Page } from 'playwright-core';
import { assertAccessible } from './support/accessibility.js';
import { collectPageErrors, screenshot, screenshotsAtBothSizes } from './support/browser.js';
import { waitForMail } from './support/mailbox.js';
import { addBorrower } from '@customer-core/api/testing';
import { openPortal, signInBySession, submitSignIn, type Portal } from './support/portal.js';
import { expectSignedOut } from './support/session.js';

// The borrower's own account: where they are signed in, and signing the other browsers out. Each
// browser context is one device of the same borrower, signed in by a session of its own (the page
// exchanges it: its browser and device, as after the sign-in form).

const onPath = (path: string) => (url: URL) => url.pathname === path;

/** Opens the account page from the account menu and waits for the session list. */
async function openAccount(page: Page) {
  await page
    .getByTestId('app-header')
    .getByRole('button', { name: /account menu/ })
    .click();
  await page.getByRole('menuitem', { name: 'Sign-in and security' }).click();
  await page.waitForURL(onPath(routes.account.path));
  await page.getByRole('heading', { level: 1, name: 'Sign-in and security' }).waitFor();
  await page.getByTestId('session-row').first().waitFor();
}

describe('the account page (browser)', () => {
  let portal: Portal;
  before(async () => {
    portal = await openPortal();
  });
  after(() => portal?.close());

  it('lists both devices, and "Sign out" on the other sends it back to sign-in', async () => {
    const { page: laptop } = await portal.newPage();
    const { page: phone } = await portal.newPage();
    const errors = collectPageErrors(laptop);
    await signInBySession(portal, laptop, { fromBrowser: true });
    await signInBySession(portal, phone, { fromBrowser: true });

    await openAccount(laptop);
    const rows = laptop.getByTestId('session-row');
    assert.equal(await rows.count(), 2);
    // Newest first: the phone signed in last; this device is marked, and has no "Sign out" of its own.
    assert.equal(await rows.nth(0).getAttribute('data-current'), 'false');
    assert.equal(await rows.nth(1).getAttribute('data-current'), 'true');
    assert.match(await rows.nth(1).innerText(), /This device/);
    assert.match(await rows.nth(1).innerText(), /Chrom(e|ium) on Linux/);
    assert.match(await rows.nth(1).innerText(), /Network 127\.0\.0\.0\/24/);
    assert.equal(await rows.nth(1).getByRole('button', { name: 'Sign out' }).count(), 0);
    await assertAccessible(laptop, 'account page');
    await screenshotsAtBothSizes(laptop, 'account');
    // Keyboard: the other device's "Sign out" takes the focus and shows it.
    await rows.nth(0).getByRole('button', { name: 'Sign out' }).focus();
    await screenshot(laptop, 'account-sign-out-focus');

    await rows.nth(0).getByRole('button', { name: 'Sign out' }).click();
    await laptop.getByTestId('account-sessions-notice').filter({ hasText: 'is signed out.' }).waitFor();
    await laptop.getByTestId('session-row').nth(1).waitFor({ state: 'detached' });
    // The focus is not lost with the button: it is on what happened.
    assert.equal(
      await laptop.getByTestId('account-sessions-notice').evaluate((node) => node === document.activeElement),
      true,
    );
    assert.equal(await laptop.getByTestId('sign-out-everywhere-else').count(), 0, 'no other device left');
    await assertAccessible(laptop, 'account page after signing a device out');
    await screenshotsAtBothSizes(laptop, 'account-after-sign-out');

    await expectSignedOut(phone);
    // This device carries on.
    await laptop.getByRole('navigation').getByRole('link', { name: 'Documents' }).first().click();
    await laptop.waitForURL(onPath(routes.documents.path));
    assert.deepEqual(errors, []);
  });

  it('"Sign out everywhere else" signs out every other device and keeps this one', async () => {
    const { page: here } = await portal.newPage();
    const others = [(await portal.newPage()).page, (await portal.newPage()).page];
    await signInBySession(portal, here, { fromBrowser: true });
    for (const other of others) await signInBySession(portal, other, { fromBrowser: true });

    await openAccount(here);
    const button = here.getByRole('button', { name: 'Sign out everywhere else' });
    await button.click();
    await here
      .getByTestId('account-sessions-notice')
      .filter({ hasText: /other devices? (is|are) signed out\./ })
      .waitFor();
    await button.waitFor({ state: 'detached' });
    assert.equal(await here.getByTestId('session-row').count(), 1);
    assert.equal(await here.getByTestId('session-row').getAttribute('data-current'), 'true');
    // (One device and a notice: the state checked for accessibility after signing one device out.)

    for (const other of others) await expectSignedOut(other);
    await here.reload();
    await here.getByTestId('session-row').first().waitFor();
    assert.equal(await here.getByTestId('session-row').count(), 1);
  });

  it('changes the password: the other device is signed out, the borrower e-mailed, the new one signs in', async () => {
    const borrower = { email: `changer-${randomUUID()}@example.com`, password: 'Before-Change-31' };
    const newPassword = 'After-Change-47';
    await addBorrower(portal.server, {
      login: borrower.email,
      password: borrower.password,
      firstName: 'Rosa',
      lastName: 'Parks',
    });
    const { page: laptop } = await portal.newPage();
    const { page: phone } = await portal.newPage();
    const errors = collectPageErrors(laptop);
    await signInBySession(portal, laptop, { email: borrower.email, fromBrowser: true });
    await signInBySession(portal, phone, { email: borrower.email, fromBrowser: true });

    await openAccount(laptop);
    const section = laptop.getByTestId('account-password');
    // (The account page at rest, with two devices: checked for accessibility in the first test.)
    await section.scrollIntoViewIfNeeded();
    await screenshotsAtBothSizes(laptop, 'account-change-password');

    // A wrong current password, refused by the identity provider. (Its words under that field, the
    // focus on it, what was typed kept, "Sign out everywhere else" ticked by default, and the notice's
    // words when done: apps/web/test/account.test.tsx.)
    await section.getByLabel('Current password').fill('Not-My-Password-1');
    await section.getByLabel('New password', { exact: true }).fill(newPassword);
    await section.getByLabel('Confirm new password').fill(newPassword);
    await section.getByRole('button', { name: 'Change password' }).click();
    await section.getByText('That isn’t your current password. Check it and try again.').waitFor();
    await assertAccessible(laptop, 'change password with a wrong current password');
    await screenshotsAtBothSizes(laptop, 'account-change-password-wrong');

    await section.getByLabel('Current password').fill(borrower.password);
    await section.getByRole('button', { name: 'Change password' }).click();
    await laptop
      .getByTestId('account-password-notice')
      .filter({ hasText: 'Your password is changed, and your other device is signed out.' })
      .waitFor();
    // The list of devices follows: only this one is left.
    await laptop.getByTestId('session-row').nth(1).waitFor({ state: 'detached' });
    // (The account page with the password changed and its notice: swept in account-activity.test.ts.)
    await screenshotsAtBothSizes(laptop, 'account-change-password-done');

    await expectSignedOut(phone);
    const mail = await waitForMail(portal.baseUrl, borrower.email);
    assert.match(mail.subject, /password was changed$/);
    assert.match(mail.text, /Your other devices were signed out\./);
    // The new password signs in, on the sign-in page the phone was sent to: back where the borrower
    // was (the page the sign-out interrupted).
    await submitSignIn(phone, borrower.email, newPassword);
    await phone.waitForURL((url) => url.pathname.startsWith(routes.dashboard.path), { timeout: 20_000 });
    // This device carries on.
    await laptop.getByRole('navigation').getByRole('link', { name: 'Documents' }).first().click();
    await laptop.waitForURL(onPath(routes.documents.path));
    assert.deepEqual(errors, []);
  });
});
