import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { routes } from '@customer-core/contracts';
import type { Page } from 'playwright-core';
import { addBorrower } from '@customer-core/api/testing';
import { inbox, waitForMail } from './support/mailbox.js';
import { openAccountRow } from './support/account.js';
import { openPortal, signInBySession, signOutFromMenu, submitSignIn, type Portal } from './support/portal.js';
import { captureBothSizes, emailCodeIn } from './support/second-factor.js';

// Email codes and recovery codes: turned on from the account page, then used to sign in. (Email
// codes set up at the first sign-in, where the lender requires a second step, are joining's.)

const BORROWER = { email: 'dana.codes@example.com', password: 'Borrower-Pass-42' };
const WRONG_EMAIL_CODE =
  'That code didn\u2019t work. Check your email and enter the newest code (codes last 5 minutes).';
const WRONG_RECOVERY_CODE =
  'That recovery code didn\u2019t work. Check it, or try another one. Each code works once.';
const notThe = (code: string) => (code === '000000' ? '111111' : '000000');

describe('email codes and recovery codes (browser, MFA_POLICY=optional)', () => {
  let portal: Portal;
  let recoveryCodes: string[] = [];

  before(async () => {
    portal = await openPortal({ MFA_POLICY: 'optional' });
    await addBorrower(portal.server, {
      login: BORROWER.email,
      password: BORROWER.password,
      firstName: 'Dana',
      lastName: 'Codes',
    });
  });
  after(() => portal?.close());

  /** The newest code mailed to the borrower, once `count` messages have arrived. */
  async function newestCode(count: number): Promise<string> {
    await waitForMail(portal.baseUrl, BORROWER.email, count);
    const code = (await inbox(portal.baseUrl, BORROWER.email))
      .map((m) => emailCodeIn(m.subject))
      .find(Boolean);
    assert.ok(code, 'a code was mailed');
    return code;
  }

  it('email codes turned on, then recovery codes made and used: the account\u2019s second factors, used to sign in', async (t) => {
    // Signed in with an email code by the first step: the second goes on from there, with both factors.
    let page: Page;
    await t.test(
      'turns on email codes with the mailed code, then signs in with a code read from the mailbox',
      async () => {
        ({ page } = await portal.newPage());
        await signInBySession(portal, page, { email: BORROWER.email, path: routes.account.path });
        const section = page.getByTestId('account-factors');
        await openAccountRow(section);
        await section.getByRole('button', { name: 'Add email codes' }).click();
        await section.getByRole('heading', { name: 'Check your email' }).waitFor();
        await section.getByText(BORROWER.email).waitFor();
        const enrolCode = await newestCode(1);
        const field = section.getByLabel('6-digit code');
        assert.equal(await field.getAttribute('autocomplete'), 'one-time-code');
        await field.fill(notThe(enrolCode));
        await section.getByRole('button', { name: 'Turn on email codes' }).click();
        await section.getByText(WRONG_EMAIL_CODE).waitFor();
        await captureBothSizes(page, 'account-email-codes-wrong-code');
        await field.fill(enrolCode);
        await section.getByRole('button', { name: 'Turn on email codes' }).click();
        await section.getByText('Email codes are turned on.').waitFor();
        await section.getByTestId('account-factors-summary').filter({ hasText: 'Email codes' }).waitFor();
        // Recovery codes are offered now that there is a second step.
        await page.getByTestId('recovery-codes-left').filter({ hasText: 'None yet' }).waitFor();
        await captureBothSizes(page, 'account-email-codes-added');
        const notice = await waitForMail(portal.baseUrl, BORROWER.email, 2);
        assert.match(notice.subject, /^Email codes were turned on for your /);

        await signOutFromMenu(page);
        await page.waitForURL((url) => url.pathname === routes.signIn.path);
        // (The factor step's words, the address as the provider masks it, a new code on request and a
        // wrong code's message: apps/web/test/factor-step.test.tsx.) Here, the identity provider's mail:
        // once a new code is sent, only the newest works.
        await submitSignIn(page, BORROWER.email, BORROWER.password);
        await page.getByRole('button', { name: 'Email me a code' }).click();
        await page.getByRole('heading', { name: 'Check your email' }).waitFor();
        const first = await newestCode(3);
        await page.getByRole('button', { name: 'Send a new code' }).click();
        const newest = await newestCode(4);
        await captureBothSizes(page, 'sign-in-email-code');
        const code = page.getByLabel('6-digit code');
        assert.equal(await code.getAttribute('inputmode'), 'numeric');
        await code.fill(newest === first ? notThe(newest) : first);
        await page.getByRole('button', { name: 'Verify' }).click();
        await page.getByText(/^That code didn\u2019t work\./).waitFor();
        await code.fill(newest);
        await page.getByRole('button', { name: 'Verify' }).click();
        await page.waitForURL((url) => url.pathname === routes.dashboard.path, { timeout: 20_000 });
      },
    );

    await t.test(
      'makes recovery codes for the password, signs in with one once; the same code is refused the second time',
      async () => {
        await page.goto(routes.account.path);
        const mails = (await inbox(portal.baseUrl, BORROWER.email)).length;
        const section = page.getByTestId('recovery-codes');
        // (A wrong password refused, the set shown once, then counted: apps/web/test/second-factors.test.tsx.)
        await section.getByRole('button', { name: 'Make codes' }).click();
        await section.getByLabel('Current password').fill(BORROWER.password);
        await section.getByRole('button', { name: 'Make recovery codes' }).click();
        await section.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
        recoveryCodes = await section.getByRole('listitem').allInnerTexts();
        assert.equal(recoveryCodes.length, 10);
        for (const code of recoveryCodes) assert.match(code, /^[0-9a-z]{4}(-[0-9a-z]{4}){3}$/);
        // Kept as a file: the codes, one a line, under what they are.
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          section.getByRole('button', { name: 'Download codes' }).click(),
        ]);
        assert.equal(download.suggestedFilename(), 'recovery-codes.txt');
        const kept = await readFile(await download.path(), 'utf8');
        assert.match(kept, /^Main Street Funding recovery codes\n/);
        assert.deepEqual(kept.trim().split('\n').slice(-10), recoveryCodes);
        await captureBothSizes(page, 'account-recovery-codes-new');
        await section.getByRole('button', { name: 'I\u2019ve saved them' }).click();
        await section.getByTestId('recovery-codes-left').filter({ hasText: '10 unused codes' }).waitFor();
        const told = await waitForMail(portal.baseUrl, BORROWER.email, mails + 1);
        assert.match(told.subject, /^New recovery codes were made for your /);

        await signOutFromMenu(page);
        await page.waitForURL((url) => url.pathname === routes.signIn.path);
        await submitSignIn(page, BORROWER.email, BORROWER.password);
        await page.getByRole('heading', { name: 'Confirm it\u2019s you' }).waitFor();
        await captureBothSizes(page, 'sign-in-factor-choice');
        // (The choice, a wrong code's message and the way back to the choice: factor-step.test.tsx.)
        await page.getByRole('button', { name: 'Use a recovery code' }).click();
        await page.getByRole('textbox', { name: 'Recovery code' }).fill(recoveryCodes[0]!);
        await page.getByRole('button', { name: 'Verify' }).click();
        await page.waitForURL((url) => url.pathname === routes.dashboard.path, { timeout: 20_000 });
        // Said on the home page until dismissed, not in a toast that goes by itself.
        const notice = page.getByTestId('landing-notice');
        await notice.getByText('you have 9 recovery codes left.', { exact: false }).waitFor();
        await captureBothSizes(page, 'home-recovery-codes-left');
        await page.reload();
        await notice.waitFor();
        await notice.getByRole('button', { name: 'Dismiss' }).click();
        await notice.waitFor({ state: 'detached' });

        await signOutFromMenu(page);
        await page.waitForURL((url) => url.pathname === routes.signIn.path);
        await submitSignIn(page, BORROWER.email, BORROWER.password);
        await page.getByRole('button', { name: 'Use a recovery code' }).click();
        const field = page.getByRole('textbox', { name: 'Recovery code' });
        await field.fill(recoveryCodes[0]!);
        await page.getByRole('button', { name: 'Verify' }).click();
        await page.getByText(WRONG_RECOVERY_CODE).waitFor();
        await captureBothSizes(page, 'sign-in-recovery-code-wrong');
        await field.fill(recoveryCodes[1]!);
        await page.getByRole('button', { name: 'Verify' }).click();
        await page.waitForURL((url) => url.pathname === routes.dashboard.path, { timeout: 20_000 });
        await page.goto(routes.account.path);
        await page.getByTestId('recovery-codes-left').filter({ hasText: '8 unused codes' }).waitFor();
      },
    );
  });
});
