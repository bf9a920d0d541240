import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { routes } from '@customer-core/contracts';
import { addBorrower } from '@customer-core/api/testing';
import { waitForMail, waitForMailWithSubject } from './support/mailbox.js';
import { openAccountRow } from './support/account.js';
import {
  makeSessionStale,
  openPortal,
  signInBySession,
  signOutFromMenu,
  submitSignIn,
  type Portal,
} from './support/portal.js';
import { captureBothSizes, emailCodeIn } from './support/second-factor.js';
import { focusReturnsTo } from './support/browser.js';

// Passkeys with Chromium's virtual authenticator (a platform authenticator with resident keys and
// user verification, as a laptop's fingerprint reader is): added from the account page, then
// signing in with the password and the passkey, and with the passkey alone.

const BORROWER = { email: 'passkey.borrower@example.com', password: 'Borrower-Pass-42' };
const WRONG_PASSWORD = 'That isn\u2019t your current password. Check it and try again.';

/** A virtual authenticator in this page: what a device with a fingerprint reader does, pressed at once. */
async function addVirtualAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const credentials = async () =>
    (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  /** Off: the borrower does not touch the sensor, so a prompt (the e-mail field's suggestions) waits. */
  const presence = (enabled: boolean) =>
    cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled });
  return { cdp, authenticatorId, credentials, presence };
}

/**
 * Both sizes from the top of the page: a focused form lower down scrolls the sticky header over
 * another section's button, which axe counts as a target too small.
 */
async function captureFromTop(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await captureBothSizes(page, name);
}

const onDashboard = (page: Page) =>
  page.waitForURL((url) => url.pathname === routes.dashboard.path, { timeout: 20_000 });

describe('passkeys (browser, virtual authenticator, MFA_POLICY=optional)', () => {
  let portal: Portal;
  before(async () => {
    portal = await openPortal({ MFA_POLICY: 'optional' });
    await addBorrower(portal.server, {
      login: BORROWER.email,
      password: BORROWER.password,
      firstName: 'Pia',
      lastName: 'Passkey',
    });
  });
  after(() => portal?.close());

  it('adds a passkey, signs in with the password and the passkey, then with the passkey alone, and removes it', async () => {
    const { context, page } = await portal.newPage();
    const authenticator = await addVirtualAuthenticator(context, page);

    await signInBySession(portal, page, { email: BORROWER.email, path: routes.account.path });
    const section = page.getByTestId('account-passkeys');
    await section.getByRole('heading', { name: 'Passkeys' }).waitFor();
    await section.getByTestId('account-passkeys-summary').filter({ hasText: 'None yet' }).waitFor();
    // (The account page at rest: swept in account.test.ts, at a desktop's size and a phone's.)

    await openAccountRow(section);
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    const heading = section.getByRole('heading', { name: 'Add a passkey' });
    await heading.waitFor();
    assert.equal(await heading.evaluate((el) => el === document.activeElement), true, 'focus moves to it');
    const name = section.getByLabel('Passkey name');
    assert.match(await name.inputValue(), /^Chrome on /, 'named after the device by default');
    await captureFromTop(page, 'account-passkeys-add');
    await name.fill('Work laptop');
    await section.getByRole('button', { name: 'Create passkey' }).click();
    await section.getByText('Your passkey is added.').waitFor();
    await section
      .getByTestId('account-passkeys-summary')
      .filter({ hasText: /^Work laptop$/ })
      .waitFor();
    await captureFromTop(page, 'account-passkeys-added');
    await openAccountRow(section);
    const row = section.getByTestId('passkey-row');
    await row.getByText('Work laptop').waitFor();
    await row.getByText('Not used yet').waitFor();
    const stored = await authenticator.credentials();
    assert.equal(stored.length, 1);
    assert.equal(stored[0]!.isResidentCredential, true, 'a discoverable credential: it signs in alone');
    assert.equal(stored[0]!.rpId, 'localhost');
    const added = await waitForMail(portal.baseUrl, BORROWER.email);
    assert.match(added.subject, /^A passkey was added to your /);
    await page
      .getByTestId('account-activity-summary')
      .filter({ hasText: /^Latest: Passkey added, / })
      .waitFor();
    // Two-step verification still offers an app or email codes.
    await page.getByTestId('account-factors').getByRole('button', { name: 'Set up' }).waitFor();

    // The password now leads to the passkey. The e-mail field's passkey suggestion waits untouched
    // (with the sensor pressed at once it would sign in by itself: see the last sign-in below).
    await signOutFromMenu(page);
    await page.waitForURL((url) => url.pathname === routes.signIn.path);
    await authenticator.presence(false);
    await submitSignIn(page, BORROWER.email, BORROWER.password);
    await page.getByRole('heading', { name: 'Use your passkey' }).waitFor();
    await captureBothSizes(page, 'sign-in-passkey-step');
    const counterBefore = (await authenticator.credentials())[0]!.signCount;
    await authenticator.presence(true);
    await page.getByRole('button', { name: 'Use my passkey' }).click();
    await onDashboard(page);
    assert.ok((await authenticator.credentials())[0]!.signCount > counterBefore, 'the passkey signed');

    // The passkey alone, with the button.
    await signOutFromMenu(page);
    await page.waitForURL((url) => url.pathname === routes.signIn.path);
    // (At a desktop's size, the sign-in screen after signing out: swept in sign-in.test.ts.)
    await captureBothSizes(page, 'sign-in-with-passkey-button', { sweepDesktop: false });
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await onDashboard(page);

    // And from the e-mail field's suggestions (conditional mediation): the focus starts it.
    await signOutFromMenu(page);
    await page.waitForURL((url) => url.pathname === routes.signIn.path);
    await page.locator('form.sign-in-form[data-ready="true"]').waitFor();
    assert.equal(await page.getByLabel('Email').getAttribute('autocomplete'), 'username webauthn');
    await page.getByLabel('Email').focus();
    await onDashboard(page);

    await page.goto(routes.account.path);
    await openAccountRow(page.getByTestId('account-activity'));
    await page
      .getByTestId('account-activity')
      .locator('[data-kind="signed_in"]', { hasText: '· Passkey' })
      .first()
      .waitFor();
    await openAccountRow(section);
    await row.getByText(/^Last used /).waitFor();
    // Cancelled, the form hands the focus back to the Remove button that opened it.
    await row.getByRole('button', { name: 'Remove' }).click();
    await section.getByRole('button', { name: 'Cancel' }).click();
    await focusReturnsTo(row.getByRole('button', { name: 'Remove' }), 'the focus is back on Remove');
    await row.getByRole('button', { name: 'Remove' }).click();
    const password = section.getByLabel('Current password');
    await password.fill('Not-My-Pass-1');
    await section.getByRole('button', { name: 'Remove passkey' }).click();
    await section.getByText(WRONG_PASSWORD).waitFor();
    await password.fill(BORROWER.password);
    await password.press('Enter');
    await section.getByText('Your passkey is removed.').waitFor();
    await section.getByTestId('account-passkeys-summary').filter({ hasText: 'None yet' }).waitFor();
    const removed = await waitForMail(portal.baseUrl, BORROWER.email, 2);
    assert.match(removed.subject, /^A passkey was removed from your /);

    // The device still holds the passkey, but no account has it: a clear refusal.
    await signOutFromMenu(page);
    await page.waitForURL((url) => url.pathname === routes.signIn.path);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page
      .getByTestId('sign-in-error-banner')
      .getByText(/We don’t recognize that passkey/)
      .waitFor();
    await captureBothSizes(page, 'sign-in-passkey-unknown');
  });

  it('confirms it’s them with their passkey before a change, and an emailed code leads to the passkey too', async () => {
    const email = `passkey.step-up.${Date.now()}@example.com`;
    await addBorrower(portal.server, {
      login: email,
      password: BORROWER.password,
      firstName: 'Sam',
      lastName: 'Stepup',
    });
    const { context, page } = await portal.newPage();
    await addVirtualAuthenticator(context, page);
    await signInBySession(portal, page, { email, path: routes.account.path });
    const passkeys = page.getByTestId('account-passkeys');
    await openAccountRow(passkeys);
    await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
    await passkeys.getByRole('button', { name: 'Create passkey' }).click();
    await passkeys.getByText('Your passkey is added.').waitFor();

    // Later: the sign-in is too old for a change of the sign-in address.
    await makeSessionStale(page, portal.server);
    await page.reload();
    const section = page.getByTestId('account-email');
    const dialog = page.getByRole('dialog', { name: 'Confirm it\u2019s you' });
    const others = dialog.getByTestId('step-up-other-ways');
    const askToChange = async (to: string) => {
      await openAccountRow(section);
      await section.getByLabel('New email address').fill(to);
      await section.getByRole('button', { name: 'Send confirmation link' }).click();
      await others.getByRole('button', { name: 'Use a passkey' }).waitFor();
    };
    const sent = (to: string) =>
      section
        .getByTestId('account-email-notice')
        .filter({ hasText: `We\u2019ve sent a link to ${to}.` })
        .waitFor();

    const first = `sam.one.${Date.now()}@example.org`;
    await askToChange(first);
    await others.getByRole('button', { name: 'Email me a code' }).waitFor();
    await captureBothSizes(page, 'step-up-passkey-ways');
    await others.getByRole('button', { name: 'Use a passkey' }).click();
    await dialog.waitFor({ state: 'detached' });
    await sent(first);

    // The emailed code is a first step only: the passkey, their second factor, comes next.
    await makeSessionStale(page, portal.server);
    const second = `sam.two.${Date.now()}@example.org`;
    await askToChange(second);
    await others.getByRole('button', { name: 'Email me a code' }).click();
    const message = await waitForMailWithSubject(portal.baseUrl, email, / confirmation code$/);
    await dialog.getByLabel('6-digit code').fill(emailCodeIn(message.subject)!);
    await dialog.getByRole('button', { name: 'Confirm and send link' }).click();
    await dialog.getByRole('heading', { name: 'Use your passkey' }).waitFor();
    await captureBothSizes(page, 'step-up-code-then-passkey');
    await dialog.getByRole('button', { name: 'Use my passkey' }).click();
    await dialog.waitFor({ state: 'detached' });
    await sent(second);
  });
});
