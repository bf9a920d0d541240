import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { operatorPaymentEndpoints, routes } from '@customer-core/contracts';
import { microDepositsIn, runAndExport, TEST_ROUTING } from '@customer-core/api/testing';
import type { Page } from 'playwright-core';
import { assertAccessible } from './support/accessibility.js';
import { collectPageErrors, screenshot, screenshotsAtBothSizes } from './support/browser.js';
import {
  borrowerLoan,
  borrowerLoanPayments,
  borrowerLoans,
  DESKTOP,
  OPERATOR_ENV,
  OPERATOR_SECRET,
  PHONE,
} from './support/loans.js';
import { openPortal, signInBySession, type Portal } from './support/portal.js';

// Paying a loan as a borrower does it, in the browser: a business bank account added (a mistyped
// routing number refused first) and verified with the two micro-deposits the lender's file carried to
// it; the past-due amount paid (clicked twice: one debit), sent to the bank and settled, the loan
// caught up; a payment scheduled and cancelled; autopay turned on with its next debit shown.

const ACCOUNT_NUMBER = '000987654321';

describe('paying a loan (browser)', () => {
  let portal: Portal;
  let page: Page;
  let errors: string[];
  let loanId: string;

  before(async () => {
    portal = await openPortal(OPERATOR_ENV);
    ({ page } = await portal.newPage());
    errors = collectPageErrors(page);
    await signInBySession(portal, page, { path: routes.bankAccounts.path });
    loanId = (await borrowerLoans(page)).find((loan) => loan.reference === 'LN-DEMO-2')!.id;
  });
  after(() => portal?.close());

  const rowOfAccount = () =>
    page.getByTestId('bank-account-row').filter({ hasText: ACCOUNT_NUMBER.slice(-4) });
  const paymentRows = () => page.getByTestId('payment');
  const paymentsInDatabase = () =>
    portal.server.server.db
      .selectFrom('payment')
      .select(['id', 'status', sql<string>`effective_on::text`.as('effective_on')])
      .where('loan_id', '=', loanId)
      .orderBy('created_at')
      .execute();
  const operatorCall = (path: string) =>
    fetch(`${portal.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OPERATOR_SECRET}` },
    });

  it('adds a business bank account, refusing a mistyped routing number, and verifies it with the micro-deposits', async () => {
    await page.getByRole('heading', { level: 1, name: 'Bank accounts' }).waitFor();
    await page.getByTestId('bank-accounts-add').click();
    await page.getByLabel('Name on the account').fill('Demo Supplies LLC');
    const routing = page.getByLabel('Routing number');
    await routing.fill('021000022');
    await routing.blur();
    await page
      .getByText('This routing number isn’t valid. Check it on a cheque or with your bank.')
      .waitFor();
    await routing.fill(TEST_ROUTING);
    await page.getByLabel('Account number', { exact: true }).fill(ACCOUNT_NUMBER);
    await page.getByLabel('Account number again').fill(ACCOUNT_NUMBER);
    await screenshot(page, 'bank-account-add');
    await page.getByRole('button', { name: 'Add bank account' }).click();
    const row = rowOfAccount();
    await row.waitFor();
    assert.equal(await row.getAttribute('data-status'), 'pending_verification');
    assert.doesNotMatch(
      await page.locator('main').innerText(),
      new RegExp(ACCOUNT_NUMBER),
      'never the whole number',
    );

    // The lender's file carries two small credits; the borrower reads them on a statement.
    const { content } = await runAndExport(portal.baseUrl, OPERATOR_SECRET);
    const [first, second] = microDepositsIn(content, TEST_ROUTING, ACCOUNT_NUMBER);
    await page.reload();
    const verify = rowOfAccount().getByTestId('bank-account-verify');
    await verify.getByLabel('First amount').fill(String(first));
    await verify.getByLabel('Second amount').fill(`$0.${String(second).padStart(2, '0')}`);
    await assertAccessible(page, 'bank account to verify');
    await verify.getByRole('button', { name: 'Verify account' }).click();
    await page.locator('[data-testid="bank-account-row"][data-status="verified"]').waitFor();
    await screenshotsAtBothSizes(page, 'bank-account-verified');
  });

  it('pays the past-due amount once though the button is pressed twice; sent, settled, the loan caught up', async () => {
    const before = await borrowerLoan(page, loanId);
    assert.ok(before.overdue, 'the demo loan is past due');
    await page.goto(routes.loanDetails.href({ loanId }));
    await page.getByRole('link', { name: 'Make a payment' }).click();
    await page.getByRole('heading', { level: 1, name: 'Make a payment' }).waitFor();
    await page.getByTestId('amount-past_due').click();
    await page.getByRole('button', { name: 'Review payment' }).focus();
    await screenshotsAtBothSizes(page, 'payment-details');
    await page.getByRole('button', { name: 'Review payment' }).click();
    const review = page.getByTestId('pay-review');
    await review.waitFor();
    await review.getByLabel('I authorize this debit').check();
    await assertAccessible(page, 'payment review');
    await page.setViewportSize(PHONE);
    await assertAccessible(page, 'payment review on a phone');
    await page.setViewportSize(DESKTOP);
    await screenshotsAtBothSizes(page, 'payment-review');
    await review.getByRole('button', { name: /^Pay / }).dblclick();
    await page.getByTestId('pay-done').waitFor();
    const reference = await page.getByTestId('payment-reference').innerText();
    assert.equal((await paymentsInDatabase()).length, 1, 'one payment for two presses');
    await screenshot(page, 'payment-scheduled');

    await page.getByTestId('pay-done').getByRole('link', { name: 'Back to your loan' }).click();
    const row = paymentRows().filter({ hasText: reference });
    await row.waitFor();
    assert.equal(await row.getAttribute('data-status'), 'scheduled');

    // The day's file takes it to the bank: pending; the bank settles the file: paid, and posted.
    const [scheduled] = await paymentsInDatabase();
    const { file } = await runAndExport(portal.baseUrl, OPERATOR_SECRET, scheduled!.effective_on);
    await page.reload();
    await paymentRows().filter({ hasText: reference }).and(page.locator('[data-status="pending"]')).waitFor();
    assert.equal(
      (await operatorCall(operatorPaymentEndpoints.settleFile.href({ fileId: file.id }))).status,
      200,
    );
    await page.reload();
    await paymentRows().filter({ hasText: reference }).and(page.locator('[data-status="settled"]')).waitFor();
    const after = await borrowerLoan(page, loanId);
    assert.equal(after.overdue, null, 'nothing past due');
    assert.equal(after.status, 'ACTIVE');
    assert.equal(after.balanceCents, before.balanceCents - before.overdue.amountCents);
    assert.equal(await page.getByTestId('overdue-notice').count(), 0, 'the notice is gone');
    assert.equal(
      await page.locator('[data-testid="instalment"][data-state="past_due"]').count(),
      0,
      'the schedule has no instalment past due',
    );
  });

  it('schedules a payment of another amount and cancels it before its cut-off', async () => {
    await page.getByRole('link', { name: 'Make a payment' }).click();
    await page.getByTestId('amount-other').click();
    await page.getByLabel('Other amount in dollars').fill('125.00');
    await page.getByRole('button', { name: 'Review payment' }).click();
    await page.getByLabel('I authorize this debit').check();
    await page.getByRole('button', { name: 'Pay $125.00' }).click();
    const reference = await page.getByTestId('payment-reference').innerText();
    await page.getByTestId('pay-done').getByRole('link', { name: 'Back to your loan' }).click();
    const row = paymentRows().filter({ hasText: reference });
    await row.waitFor();
    assert.equal(await row.getAttribute('data-status'), 'scheduled');
    await row.getByRole('button', { name: /^Cancel the payment of \$125\.00/ }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByRole('button', { name: 'Cancel payment' }).click();
    await paymentRows()
      .filter({ hasText: reference })
      .and(page.locator('[data-status="cancelled"]'))
      .waitFor();
    assert.deepEqual(
      (await paymentsInDatabase()).map((p) => p.status),
      ['settled', 'cancelled'],
    );
  });

  it('turns autopay on from the verified account and shows the next debit', async () => {
    const autopay = page.getByTestId('autopay');
    await autopay.getByRole('button', { name: 'Turn on autopay' }).click();
    const form = page.getByTestId('autopay-form');
    await form
      .getByText(`••${ACCOUNT_NUMBER.slice(-4)}`)
      .first()
      .click();
    await form.getByLabel('I authorize these debits').check();
    await assertAccessible(page, 'autopay form');
    await form.getByRole('button', { name: 'Turn on autopay' }).click();
    await autopay.getByTestId('autopay-state').getByText('On').waitFor();
    // The next instalment's day (or the banking day after it), as the API says, in the portal's words.
    const { autopay: state } = await borrowerLoanPayments(page, loanId);
    const on = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(
      new Date(`${state.nextDebit!.on}T00:00:00Z`),
    );
    assert.match(
      await autopay.getByTestId('autopay-next').innerText(),
      new RegExp(`^Next debit: \\$[\\d,.]+ on ${on}`),
    );
    await screenshotsAtBothSizes(page, 'autopay-on');
    await assertAccessible(page, 'autopay on');
    assert.deepEqual(errors, []);
  });
});
