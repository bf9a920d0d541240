import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { routes } from '@customer-core/contracts';
import { collectPageErrors } from './support/browser.js';
import { onPath, withText } from './support/getting-back-in.js';
import { OPERATOR_ENV, runCliInProcess } from './support/joining.js';
import { borrowerLoan, readToTheEnd, signAll } from './support/loans.js';
import { linkPath, waitForMail } from './support/mailbox.js';
import { openPortal, submitSignIn, type Portal } from './support/portal.js';
import { authenticatorCode, captureBothSizes, emailCodeIn } from './support/second-factor.js';

// Registration where the lender asks every borrower for a second factor: the invited borrower
// chooses a password, sets up an authenticator app on the same page, and only then is signed in;
// that sign-in signs a loan document without asking again. A borrower without one sets it up at
// sign-in: email codes instead of an app.

const PASSWORD = 'Corner-Shop-2026';

describe('joining under MFA_POLICY=required (browser)', () => {
  let portal: Portal;
  before(async () => {
    portal = await openPortal({ ...OPERATOR_ENV, MFA_POLICY: 'required' });
  });
  after(() => portal?.close());

  /** Invites the borrower (with an ACTIVE loan, whose documents need signing) and opens the link. */
  async function registerInvited(page: Page, email: string, reference: string) {
    await runCliInProcess(portal.baseUrl, [
      'invite',
      '--email',
      email,
      '--first-name',
      'Rosa',
      '--last-name',
      'Martinez',
    ]);
    await runCliInProcess(portal.baseUrl, [
      'add-loan',
      '--email',
      email,
      '--reference',
      reference,
      '--product',
      'Term loan',
      '--amount',
      '50000',
    ]);
    await page.goto(linkPath(await waitForMail(portal.baseUrl, email), '/user-registration/'));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
  }

  it('sets up an authenticator app before the first sign-in, then lands home and signs a document', async () => {
    const email = 'rosa.two-step@example.com';
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    await registerInvited(page, email, 'LN-E2E-MFA-1');

    const screen = page.getByTestId('user-registration-factor');
    await screen.getByRole('heading', { name: 'Your account is ready' }).waitFor();
    await screen.getByText(`Your account for ${email} has been created.`).waitFor();
    await screen.getByRole('heading', { name: 'Set up two-step verification' }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'factor-step-title');
    await captureBothSizes(page, 'user-registration-factor-enrol');
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();

    await page.getByRole('heading', { name: 'Scan this code with your authenticator app' }).waitFor();
    const secret = (await page.getByTestId('factor-secret').innerText()).replace(/\s/g, '');
    await captureBothSizes(page, 'user-registration-factor-scan');
    await page.getByLabel('6-digit code').fill(authenticatorCode(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();

    await page.waitForURL(onPath(routes.dashboard.path), { timeout: 20_000 });
    await page.getByRole('heading', { name: 'Hello, Rosa' }).waitFor();
    await page.getByTestId('toast').filter(withText('Your account is ready.')).waitFor();
    // (The home with this toast: swept in joining.test.ts.)

    // The sign-in that enrolled the factor is strong and recent: signing asks nothing more.
    const { id: loanId } = await portal.server.server.db
      .selectFrom('loan')
      .select('id')
      .where('reference', '=', 'LN-E2E-MFA-1')
      .executeTakeFirstOrThrow();
    await page.goto(routes.loanCheckout.href({ loanId }));
    await page.getByRole('heading', { name: 'Review and sign your documents' }).waitFor();
    for (const doc of (await borrowerLoan(page, loanId)).documents) await readToTheEnd(page, doc.title);
    await signAll(page, 'Rosa Martinez');
    await page.getByTestId('checkout-complete').waitFor();
    assert.equal(await page.getByRole('dialog').count(), 0, 'no step-up');
    assert.deepEqual(errors, []);
  });

  it('leaving the set-up leads to sign-in, where the new password leads back to it: email codes instead of an app', async () => {
    const email = 'sam.two-step@example.com';
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    await registerInvited(page, email, 'LN-E2E-MFA-2');
    await page.getByRole('heading', { name: 'Set up two-step verification' }).waitFor();
    await page.getByRole('button', { name: 'Back to sign in' }).click();
    await page.waitForURL(onPath(routes.signIn.path));

    // The first sign-in sets up the second step: here, codes by email, confirmed by the mailed code.
    await submitSignIn(page, email, PASSWORD);
    await page.getByRole('heading', { name: 'Set up two-step verification' }).waitFor();
    await page.getByRole('button', { name: 'Get codes by email instead' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await page.getByText('s\u2026p@example.com').waitFor();
    const mail = await waitForMail(portal.baseUrl, email, 2);
    await captureBothSizes(page, 'sign-in-enrol-email-code');
    await page.getByLabel('6-digit code').fill(emailCodeIn(mail.subject)!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.pathname === routes.dashboard.path, { timeout: 20_000 });
    assert.deepEqual(errors, []);
  });
});
