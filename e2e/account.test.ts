import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { routes } from '@customer-core/contracts';
import type { Page } from 'playwright-core';
import { assertAccessible } from './support/accessibility.js';
import {
  DESKTOP,
  PHONE,
  collectPageErrors,
  focusReturnsTo,
  screenshot,
  screenshotsAtBothSizes,
} from './support/browser.js';
import { openAccountRow } from './support/account.js';
import { waitForMail } from './support/mailbox.js';
import { addBorrower, mintSession } from '@customer-core/api/testing';
import { openPortal, signInBySession, submitSignIn, type Portal } from './support/portal.js';
import { expectSignedOut } from './support/session.js';

// The borrower's own account: its rows, opened and closed by keyboard; where they are signed in, by
// device, and signing the other browsers out. Each browser context is one browser of the same
// borrower, signed in by a session of its own (the page exchanges it: its browser and device, as after
// the sign-in form); every context is Chrome on Linux, so they share one device row.

const onPath = (path: string) => (url: URL) => url.pathname === path;

/** Opens the account page from the account menu and waits for the devices. */
async function openAccount(page: Page) {
  await page
    .getByTestId('app-header')
    .getByRole('button', { name: /account menu/ })
    .click();
  await page.getByRole('menuitem', { name: 'Sign-in and security' }).click();
  await page.waitForURL(onPath(routes.account.path));
  await page.getByRole('heading', { level: 1, name: 'Sign-in and security' }).waitFor();
  await page.getByTestId('session-device').first().waitFor();
}

/** The page's full height at a desktop's size. */
const pageHeight = (page: Page) => page.evaluate(() => document.documentElement.scrollHeight);

describe('the account page (browser)', () => {
  let portal: Portal;
  before(async () => {
    portal = await openPortal();
  });
  after(() => portal?.close());

  it('lists both browsers under their device, and "Sign out" on the other sends it back to sign-in', async () => {
    const { page: laptop } = await portal.newPage();
    const { page: phone } = await portal.newPage();
    const errors = collectPageErrors(laptop);
    await signInBySession(portal, laptop, { fromBrowser: true });
    await signInBySession(portal, phone, { fromBrowser: true });

    await openAccount(laptop);
    // Both browsers are Chrome on Linux: one device, marked as this one, its two sign-ins counted.
    const devices = laptop.getByTestId('session-device');
    assert.equal(await devices.count(), 1);
    assert.equal(await devices.getAttribute('data-current'), 'true');
    assert.match(await devices.innerText(), /Chrom(e|ium) on Linux\s*This device/);
    assert.match(await devices.getByTestId('session-device-count').innerText(), /^2 sign-ins · Last active /);
    assert.equal(await laptop.getByTestId('session-row').count(), 0, 'its sign-ins wait to be shown');
    await assertAccessible(laptop, 'account page');
    await laptop.setViewportSize(PHONE);
    await assertAccessible(laptop, 'account page (phone)');
    await laptop.setViewportSize(DESKTOP);
    await screenshotsAtBothSizes(laptop, 'account');

    // Keyboard: Enter on the device's button lists its sign-ins, this browser's first and marked, with
    // no "Sign out" of its own.
    const toggle = devices.getByTestId('session-device-toggle');
    assert.equal(await toggle.innerText(), 'Show sign-ins');
    await toggle.focus();
    await laptop.keyboard.press('Enter');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    const rows = laptop.getByTestId('session-row');
    await rows.nth(1).waitFor();
    assert.equal(await rows.count(), 2);
    assert.equal(await rows.nth(0).getAttribute('data-current'), 'true');
    assert.equal(await rows.nth(1).getAttribute('data-current'), 'false');
    assert.match(await rows.nth(0).innerText(), /This browser/);
    assert.match(await rows.nth(0).innerText(), /Network 127\.0\.0\.0\/24/);
    assert.equal(await rows.nth(0).getByRole('button', { name: 'Sign out' }).count(), 0);
    await assertAccessible(laptop, 'account page, a device\u2019s sign-ins shown');
    // On a phone too: the device's button and its nested sign-ins.
    await laptop.setViewportSize(PHONE);
    await assertAccessible(laptop, 'account page, a device\u2019s sign-ins shown (phone)');
    await screenshot(laptop, 'account-sign-ins-shown-phone');
    await laptop.setViewportSize(DESKTOP);
    // The other browser's "Sign out" takes the focus and shows it.
    await rows.nth(1).getByRole('button', { name: 'Sign out' }).focus();
    await screenshot(laptop, 'account-sign-out-focus');

    await rows.nth(1).getByRole('button', { name: 'Sign out' }).click();
    await laptop.getByTestId('account-sessions-notice').filter({ hasText: 'is signed out.' }).waitFor();
    // One sign-in left: the device shows it in its row.
    await devices.getByTestId('session-device-count').waitFor({ state: 'detached' });
    assert.equal(await laptop.getByTestId('session-row').count(), 1);
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
    const email = `many-${randomUUID()}@example.com`;
    await addBorrower(portal.server, {
      login: email,
      password: 'Many-Devices-31',
      firstName: 'Mo',
      lastName: 'Many',
    });
    const { page: here } = await portal.newPage();
    const others = [(await portal.newPage()).page, (await portal.newPage()).page];
    await signInBySession(portal, here, { email, fromBrowser: true });
    for (const other of others) await signInBySession(portal, other, { email, fromBrowser: true });
    // Six more sign-ins, made by no browser the API recognises (as an app or a script would).
    for (let n = 0; n < 6; n += 1) await mintSession(portal.server, email);

    await openAccount(here);
    // Nine sign-ins on two devices: two rows, this one first; every row of the page closed.
    const devices = here.getByTestId('session-device');
    assert.equal(await devices.count(), 2);
    assert.equal(await devices.nth(0).getAttribute('data-current'), 'true');
    assert.match(await devices.nth(0).getByTestId('session-device-count').innerText(), /^3 sign-ins/);
    assert.match(await devices.nth(1).innerText(), /^Unknown device\n/);
    assert.match(await devices.nth(1).getByTestId('session-device-count').innerText(), /^6 sign-ins/);
    assert.equal(await here.locator('[aria-expanded="true"]').count(), 0);
    // Before the rows (every form open, each sign-in its own row), this page was over 4,000 px tall.
    const height = await pageHeight(here);
    assert.ok(height < 1800, `the page is ${height} px tall with every row closed`);
    await screenshotsAtBothSizes(here, 'account-nine-sign-ins');

    const button = here.getByRole('button', { name: 'Sign out everywhere else' });
    await button.click();
    await here
      .getByTestId('account-sessions-notice')
      .filter({ hasText: /other devices? (is|are) signed out\./ })
      .waitFor();
    await button.waitFor({ state: 'detached' });
    assert.equal(await here.getByTestId('session-device').count(), 1);
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
    assert.equal(await section.getByTestId('account-password-summary').innerText(), 'Set');
    // No password field until the row is opened. (The account page at rest: the first test.)
    assert.equal(await laptop.getByLabel('Current password').count(), 0);
    // Keyboard: Tab reaches the row's "Change", Enter opens the form with the focus in its first field,
    // Escape closes it with the focus back on "Change".
    const change = section.getByRole('button', { name: 'Change', exact: true });
    await laptop.getByTestId('account-email').getByRole('button', { name: 'Change', exact: true }).focus();
    await laptop.keyboard.press('Tab');
    assert.equal(await change.evaluate((node) => node === document.activeElement), true, 'Tab reaches it');
    await screenshot(laptop, 'account-row-button-focus');
    await laptop.keyboard.press('Enter');
    await focusReturnsTo(section.getByLabel('Current password'), 'the focus is in the form');
    assert.equal(await change.getAttribute('aria-expanded'), 'true');
    await laptop.keyboard.press('Escape');
    await section.getByTestId('account-password-panel').waitFor({ state: 'detached' });
    await focusReturnsTo(change);
    assert.equal(await change.getAttribute('aria-expanded'), 'false');
    await change.hover();
    await screenshot(laptop, 'account-row-button-hover');

    await openAccountRow(section);
    await assertAccessible(laptop, 'account page, the password row open');
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
    // The form closes, and the focus is back on the row's button.
    await section.getByTestId('account-password-panel').waitFor({ state: 'detached' });
    await focusReturnsTo(change);
    // The list of devices follows: only this browser is left.
    await laptop.getByTestId('session-device-count').waitFor({ state: 'detached' });
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
