import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { routes } from '@customer-core/contracts';
import { addBorrower } from '@customer-core/api/testing';
import { waitForMail } from './support/mailbox.js';
import { openAccountRow } from './support/account.js';
import {
  makeSessionStale,
  openPortal,
  type Portal,
  signInBySession,
  signOutFromMenu,
  submitSignIn,
} from './support/portal.js';
import { authenticatorCode, captureBothSizes } from './support/second-factor.js';
import { focusReturnsTo } from './support/browser.js';

// Two-step verification from the account page: adding an authenticator app, signing in with it,
// removing it after the password.

const BORROWER = { email: 'account.factor@example.com', password: 'Borrower-Pass-42' };
const WRONG_CODE = 'That code didn\u2019t work. Check your app and enter the code it shows now.';
const WRONG_PASSWORD = 'That isn\u2019t your current password. Check it and try again.';

/** A six-digit code the app does not show now, nor one step either side. */
function notAnAppCode(secret: string): string {
  const near = new Set([-1, 0, 1, 2].map((step) => authenticatorCode(secret, step)));
  return ['000000', '111111', '222222', '333333', '444444'].find((code) => !near.has(code))!;
}

describe('two-step verification on the account page (browser, MFA_POLICY=optional)', () => {
  let portal: Portal;
  before(async () => {
    portal = await openPortal({ MFA_POLICY: 'optional' });
    await addBorrower(portal.server, {
      login: BORROWER.email,
      password: BORROWER.password,
      firstName: 'Ari',
      lastName: 'Account',
    });
  });
  after(() => portal?.close());

  it('adds an app, signs in with its code (a wrong one refused), and removes it after the password', async () => {
    const { page } = await portal.newPage();
    await signInBySession(portal, page, { email: BORROWER.email, path: routes.account.path });
    const section = page.getByTestId('account-factors');
    await section.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    await section.getByTestId('account-factors-summary').filter({ hasText: 'None yet' }).waitFor();
    // Open, it says what signing in takes now: the password alone, so far.
    await openAccountRow(section);
    await section.getByText(/^Add a second step to signing in/).waitFor();
    await captureBothSizes(page, 'account-factors-none');

    // (Cancel and the focus given back, the focus on the form's heading, the QR code, a wrong code's
    // message and the added row's words: apps/web/test/second-factors.test.tsx.) Here, by keyboard, the
    // identity provider's key and codes.
    await section.getByRole('button', { name: 'Add an authenticator app' }).press('Enter');
    await section.getByRole('heading', { name: 'Scan this code with your authenticator app' }).waitFor();
    const secret = (await section.getByTestId('factor-secret').innerText()).replace(/\s/g, '');
    assert.match(secret, /^[A-Z2-7]{32}$/);

    const code = section.getByLabel('6-digit code');
    await code.fill(notAnAppCode(secret));
    await section.getByRole('button', { name: 'Add app' }).click();
    await section.getByText(WRONG_CODE).waitFor();
    await captureBothSizes(page, 'account-factors-scan-wrong-code');

    await code.fill(authenticatorCode(secret));
    await section.getByRole('button', { name: 'Add app' }).click();
    await section.getByText('Your authenticator app is added.').waitFor();
    await section.getByTestId('account-factors-summary').filter({ hasText: 'Authenticator app' }).waitFor();
    await openAccountRow(section);
    await section
      .getByText(/^Signing in takes your password and a code from your authenticator app\./)
      .waitFor();
    const row = section.getByTestId('factor-row');
    await row.getByText('Not used yet').waitFor();
    await captureBothSizes(page, 'account-factors-added');
    const added = await waitForMail(portal.baseUrl, BORROWER.email);
    assert.match(added.subject, /^An authenticator app was added to your /);

    // Signing in now takes a code.
    await signOutFromMenu(page);
    await page.waitForURL((url) => url.pathname === routes.signIn.path);
    // (A wrong code at sign-in: apps/web/test/factor-step.test.tsx.) The next step's code: the one that
    // added the app is spent.
    await submitSignIn(page, BORROWER.email, BORROWER.password);
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    const field = page.getByLabel('6-digit code');
    await field.fill(authenticatorCode(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.pathname === routes.dashboard.path, { timeout: 20_000 });

    await page.goto(routes.account.path);
    await openAccountRow(section);
    await row.getByText(/^Last used /).waitFor();

    // (Cancel, the focus on the password, and a wrong one's words: second-factors.test.tsx.)
    await row.getByRole('button', { name: 'Remove' }).click();
    const password = section.getByLabel('Current password');
    await password.fill('Not-My-Pass-1');
    await section.getByRole('button', { name: 'Remove app' }).click();
    await section.getByText(WRONG_PASSWORD).waitFor();
    await captureBothSizes(page, 'account-factors-remove-wrong-password');

    await password.fill(BORROWER.password);
    await password.press('Enter');
    await section.getByText('Your authenticator app is removed.').waitFor();
    await section.getByTestId('account-factors-summary').filter({ hasText: 'None yet' }).waitFor();
    const removed = await waitForMail(portal.baseUrl, BORROWER.email, 2);
    assert.match(removed.subject, /^An authenticator app was removed from your /);

    // The password alone signs in again.
    await signOutFromMenu(page);
    await page.waitForURL((url) => url.pathname === routes.signIn.path);
    await submitSignIn(page, BORROWER.email, BORROWER.password);
    await page.waitForURL((url) => url.pathname === routes.dashboard.path, { timeout: 20_000 });
  });

  it('asks a sign-in over 10 minutes old to confirm it’s you before adding an app, then shows the app’s key', async () => {
    const login = 'account.factor.stale@example.com';
    await addBorrower(portal.server, {
      login,
      password: BORROWER.password,
      firstName: 'Ari',
      lastName: 'Account',
    });
    const { page } = await portal.newPage();
    // Signed in on a page of the portal's origin that is no portal page; the account page opens once
    // the session is older than adding a way to sign in allows, by its own auth_time.
    await signInBySession(portal, page, { email: login, path: '/healthz' });
    await makeSessionStale(page, portal.server);

    await page.goto(routes.account.path);
    const section = page.getByTestId('account-factors');
    await openAccountRow(section);
    const add = section.getByRole('button', { name: 'Add an authenticator app' });
    await add.click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it\u2019s you' });
    await dialog.getByText('To add a sign-in step, confirm it\u2019s you.').waitFor();
    // Escape closes it, and nothing was started.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await focusReturnsTo(add);

    await add.click();
    await dialog.getByLabel('Password', { exact: true }).fill(BORROWER.password);
    await dialog.getByRole('button', { name: 'Confirm and continue' }).click();
    await dialog.waitFor({ state: 'detached' });
    await section.getByRole('heading', { name: 'Scan this code with your authenticator app' }).waitFor();
    const secret = (await section.getByTestId('factor-secret').innerText()).replace(/\s/g, '');
    await section.getByLabel('6-digit code').fill(authenticatorCode(secret));
    await section.getByRole('button', { name: 'Add app' }).click();
    await section.getByTestId('account-factors-summary').filter({ hasText: 'Authenticator app' }).waitFor();
  });
});
