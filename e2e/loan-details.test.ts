import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { routes, type LoanDetail } from '@customer-core/contracts';
import type { Page } from 'playwright-core';
import { assertAccessible } from './support/accessibility.js';
import { collectPageErrors, screenshot } from './support/browser.js';
import { DESKTOP, OPERATOR_ENV, PHONE, borrowerLoan, borrowerLoans } from './support/loans.js';
import { openPortal, signInBySession, type Portal } from './support/portal.js';

// A loan's details page, from the loans page: terms, the payment schedule, and for the demo
// borrower's past-due loan the amount overdue, how late and the lender's phone.

describe('loan details (browser)', () => {
  let portal: Portal;
  let page: Page;
  let errors: string[];
  before(async () => {
    portal = await openPortal(OPERATOR_ENV);
    ({ page } = await portal.newPage());
    errors = collectPageErrors(page);
    await signInBySession(portal, page, { path: routes.loans.path });
  });
  after(() => portal?.close());

  /** Opens a loan's details from the loans page (where the page is signed in), by its name. */
  async function openFromLoansPage(reference: string): Promise<LoanDetail> {
    if (new URL(page.url()).pathname !== routes.loans.path) await page.goto(routes.loans.path);
    const card = page.locator(`[data-testid="loan-card"][data-reference="${reference}"]`);
    const summary = (await borrowerLoans(page)).find((loan) => loan.reference === reference);
    assert.ok(summary, `${reference} is listed`);
    await card.getByRole('link', { name: summary.product }).click();
    await page.waitForURL(`**${routes.loanDetails.href({ loanId: summary.id })}`);
    await page.getByTestId('loan-details').waitFor();
    return borrowerLoan(page, summary.id);
  }

  it('shows a past-due loan: its notice and its schedule with the late instalment, on a desktop and a phone', async () => {
    const loan = await openFromLoansPage('LN-DEMO-2');
    assert.ok(loan.overdue, 'the demo past-due loan has instalments past due');
    await page.getByRole('heading', { level: 1, name: loan.product }).waitFor();
    assert.equal(await page.title().then((t) => t.includes(loan.reference)), true);

    // The notice's words, figures and phone link: apps/web/test/loans.test.tsx.
    await page.getByTestId('overdue-notice').waitFor();

    const rows = page.getByTestId('instalment');
    assert.equal(await rows.count(), loan.instalments.length);
    assert.deepEqual(
      await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-state'))),
      loan.instalments.map((i) => i.state),
    );
    const late = page.locator('[data-testid="instalment"][data-state="past_due"]');
    assert.match((await late.textContent()) ?? '', /Past due/);

    await assertAccessible(page, 'past-due loan details');
    await screenshot(page, 'loan-details-past-due');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'loan-details-past-due-phone');
    await assertAccessible(page, 'past-due loan details on a phone');
    await page.setViewportSize(DESKTOP);
  });

  it('shows an active loan: its next payment, its schedule, and the way to its documents', async () => {
    const loan = await openFromLoansPage('LN-DEMO-1');
    assert.equal(loan.overdue, null);
    assert.equal(await page.getByTestId('overdue-notice').count(), 0);
    const rows = page.getByTestId('instalment');
    assert.equal(await rows.count(), loan.instalments.length);
    assert.match((await rows.first().textContent()) ?? '', /Upcoming/);
    await page.getByRole('link', { name: 'Review and sign documents' }).waitFor();
    await assertAccessible(page, 'active loan details');
    await screenshot(page, 'loan-details-active');

    await page.getByRole('link', { name: 'Back to your loans' }).click();
    await page.waitForURL(`**${routes.loans.path}`);
    assert.deepEqual(errors, []);
  });

  it('answers an unknown or malformed loan id with the not-found page', async () => {
    for (const loanId of ['7d0c2a9e-4a51-4c5e-9a0b-2f6f3c1d8e42', 'not-a-loan']) {
      await page.goto(`${portal.baseUrl}${routes.loanDetails.href({ loanId })}`);
      await page.getByTestId('loan-not-found').waitFor();
    }
  });
});
