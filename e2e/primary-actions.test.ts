import { after, before, describe, it } from 'node:test';
import { routes } from '@customer-core/contracts';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser.js';
import { openAccountRow } from './support/account.js';
import { assertReadableOnHover } from './support/contrast.js';
import { OPERATOR_ENV } from './support/loans.js';
import { openPortal, signInAsDemo, type Portal } from './support/portal.js';

// Every primary action of the portal, hovered as a mouse user does: its label keeps 4.5:1 against the
// button behind it (axe checks the resting state only). Links styled as buttons are the ones at risk.

const UNKNOWN_LOAN = '00000000-0000-4000-8000-000000000000';

async function hoverAndCheck(page: Page, role: 'link' | 'button', name: string, shot: string) {
  const action = page.getByRole(role, { name, exact: true });
  await action.waitFor();
  await assertReadableOnHover(action, `"${name}"`);
  await screenshot(page, `hover-${shot}`);
}

describe('primary actions on hover (browser)', () => {
  let portal: Portal;
  before(async () => {
    portal = await openPortal(OPERATOR_ENV);
  });
  after(() => portal?.close());

  it('keeps the labels of the public screens readable', async () => {
    const { page } = await portal.newPage();
    await page.goto(routes.signIn.path);
    // The first paint's read-only form is replaced by the interactive one: hover that one.
    await page.locator('form[data-ready="true"]').waitFor();
    await hoverAndCheck(page, 'button', 'LOGIN', 'sign-in');

    await page.goto('/no-such-page');
    await hoverAndCheck(page, 'link', 'Go to sign in', 'not-found');

    await page.goto(routes.userRegistration.href({ token: 'made-up-invitation' }));
    await hoverAndCheck(page, 'link', 'Go to sign in', 'invalid-invitation');

    await page.goto(routes.passwordReset.href({ token: 'made-up-reset-token' }));
    await hoverAndCheck(page, 'link', 'Request a new reset link', 'reset-link-used');

    await page.goto(routes.directAppEmailVerification.href({ token: 'made-up-verification' }));
    await page.getByRole('button', { name: 'Verify my email address' }).click();
    await hoverAndCheck(page, 'link', 'Start a new application', 'verification-link-used');
  });

  it('keeps the labels of the signed-in screens readable', async () => {
    const { page } = await portal.newPage();
    await signInAsDemo(page);
    const review = page.getByRole('link', { name: /^Review and sign documents/ });
    await review.waitFor();
    await assertReadableOnHover(review, '"Review and sign documents"');
    await screenshot(page, 'hover-home');

    await page.goto(routes.loanCheckout.href({ loanId: UNKNOWN_LOAN }));
    await hoverAndCheck(page, 'link', 'Back to your account', 'loan-not-found');

    await page.goto(routes.loginCallback.path);
    await hoverAndCheck(page, 'link', 'Go to your account', 'callback-welcome');

    await page.goto(routes.account.path);
    // Each row's form, opened by the row's button, one at a time.
    await openAccountRow(page.getByTestId('account-password'));
    await hoverAndCheck(page, 'button', 'Change password', 'account-password');
    await openAccountRow(page.getByTestId('account-email'));
    await hoverAndCheck(page, 'button', 'Send confirmation link', 'account-email');
    await openAccountRow(page.getByTestId('account-factors'));
    await hoverAndCheck(page, 'button', 'Add an authenticator app', 'account-factors');
  });
});
