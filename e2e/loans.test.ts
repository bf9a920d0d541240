import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { OPEN_LOAN_STATUSES, routes, type LoanSummary } from '@customer-core/contracts';
import type { Locator, Page } from 'playwright-core';
import { assertAccessible } from './support/accessibility.js';
import { collectPageErrors, screenshot, screenshotsAtBothSizes } from './support/browser.js';
import { onPath, withText } from './support/getting-back-in.js';
import {
  DESKTOP,
  OPERATOR_ENV,
  addLoan,
  borrowerLoan,
  borrowerLoans,
  loanCountOf,
  usd,
} from './support/loans.js';
import { DEMO, openPortal, signInBySession, submitSignIn, type Portal } from './support/portal.js';

// The signed-in home's loans and the loan checkout, against the real server: the demo borrower is
// seeded with a loan in each status and the documents of the active one. The server is this file's
// own: the checkout test signs the documents.

const isOpen = (loan: LoanSummary) => (OPEN_LOAN_STATUSES as readonly string[]).includes(loan.status);
const STATUS_WORDS: Record<LoanSummary['status'], string> = {
  ACTIVE: 'Active',
  'PAST DUE': 'Past due',
  PAID: 'Paid off',
  'CLOSED LOST': 'Closed',
};
const DAY = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const calendarDay = (isoDate: string) => DAY.format(new Date(`${isoDate}T00:00:00Z`));

const cards = (list: Locator) => list.getByTestId('loan-card');
const attributes = (list: Locator, name: string) =>
  cards(list).evaluateAll((nodes, attr) => nodes.map((n) => n.getAttribute(attr)), name);
const loansLoaded = (page: Page) =>
  page.getByTestId('loans').and(page.locator('[data-state="loaded"]')).waitFor();

describe('loans and loan checkout (browser)', () => {
  let portal: Portal;
  let active: LoanSummary;
  // The demo borrower's home, opened once: the first test looks at it.
  let home: Page;
  let homeErrors: string[];
  before(async () => {
    portal = await openPortal(OPERATOR_ENV);
    ({ page: home } = await portal.newPage());
    homeErrors = collectPageErrors(home);
    await signInBySession(portal, home);
    const loans = await borrowerLoans(home);
    const found = loans.find((loan) => loan.status === 'ACTIVE');
    assert.ok(found, 'the demo borrower has an active loan');
    active = found;
  });
  after(() => portal?.close());

  it('lists the demo loans by status on the home: open ones first, closed ones apart, no HIDDEN one', async () => {
    const page = home;
    await loansLoaded(page);
    const loans = await borrowerLoans(page);
    const open = loans.filter(isOpen);
    const closed = loans.filter((loan) => !isOpen(loan));
    assert.deepEqual(
      new Set(loans.map((l) => l.status)),
      new Set(['ACTIVE', 'PAST DUE', 'PAID', 'CLOSED LOST']),
    );
    // The operators see one loan more: the HIDDEN one, which neither the API nor the page shows.
    assert.equal(await loanCountOf(portal.baseUrl, DEMO.email), loans.length + 1);

    const openList = page.getByTestId('open-loans');
    const closedList = page.getByTestId('closed-loans');
    assert.deepEqual(
      await attributes(openList, 'data-reference'),
      open.map((l) => l.reference),
    );
    assert.deepEqual(
      await attributes(closedList, 'data-reference'),
      closed.map((l) => l.reference),
    );
    assert.equal(await page.locator('[data-status="HIDDEN"]').count(), 0);
    assert.doesNotMatch(await page.locator('main').innerText(), /hidden/i);
    await closedList.getByRole('heading', { name: 'Closed loans' }).waitFor();
    // Open loans come first in the page.
    const openTop = (await openList.boundingBox())!.y;
    assert.ok(openTop < (await closedList.boundingBox())!.y, 'open loans above closed ones');

    for (const loan of loans) {
      const card = page.locator(`[data-testid="loan-card"][data-reference="${loan.reference}"]`);
      await card.getByRole('heading', { name: loan.product }).waitFor();
      // The status in words, with its own colour.
      const badge = card.getByTestId('loan-status');
      assert.equal(await badge.innerText(), STATUS_WORDS[loan.status]);
      assert.equal(await badge.getAttribute('data-status'), loan.status);
      assert.equal(await card.getByTestId('loan-amount').innerText(), usd(loan.amountCents));
      assert.equal(await card.getByTestId('loan-balance').innerText(), usd(loan.balanceCents));
      const nextPayment = card.getByTestId('loan-next-payment');
      if (!isOpen(loan)) assert.equal(await nextPayment.count(), 0, 'no next payment on a closed loan');
      else if (loan.nextPayment) {
        const text = await nextPayment.innerText();
        assert.match(text, new RegExp(usd(loan.nextPayment.amountCents).replace(/[$.]/g, '\\$&')));
        assert.match(text, new RegExp(`due ${calendarDay(loan.nextPayment.dueOn)}`));
      } else assert.equal(await nextPayment.innerText(), 'None scheduled');
    }
    const colours = await page
      .getByTestId('loan-status')
      .evaluateAll((badges) => badges.map((b) => getComputedStyle(b).backgroundColor));
    assert.equal(new Set(colours).size, loans.length, 'each status has its own colour');

    // The active loan, its documents not signed, leads to its checkout; no other loan does.
    const signLinks = page.getByRole('link', { name: /Review and sign documents/ });
    assert.equal(await signLinks.count(), 1);
    const activeCard = page.locator(`[data-testid="loan-card"][data-reference="${active.reference}"]`);
    assert.equal(
      await activeCard.getByRole('link', { name: /Review and sign documents/ }).getAttribute('href'),
      routes.loanCheckout.href({ loanId: active.id }),
    );
    const documentCount = (await borrowerLoan(page, active.id)).documents.length;
    await activeCard.getByText(`0 of ${documentCount} documents done`).waitFor();

    await assertAccessible(page, 'home with loans');
    await screenshotsAtBothSizes(page, 'home-loans');
    assert.deepEqual(homeErrors, []);
  });

  it('says so when the loans cannot be loaded, and loads them on "Try again"', async () => {
    const { page } = await portal.newPage();
    // Refused from the home's first load on.
    await page.route('**/api/borrower/loans', (route) =>
      route.fulfill({ status: 503, contentType: 'text/html', body: '<h1>503 Service Unavailable</h1>' }),
    );
    await signInBySession(portal, page);
    const problem = page.getByRole('alert').filter(withText('We couldn’t load your loans just now.'));
    await problem.waitFor();
    assert.doesNotMatch(await problem.innerText(), /503|Service Unavailable/);
    await assertAccessible(page, 'home, loans failed');
    await screenshot(page, 'home-loans-error');
    await page.unroute('**/api/borrower/loans');
    await problem.getByRole('button', { name: 'Try again' }).click();
    await loansLoaded(page);
    assert.equal(await cards(page.getByTestId('open-loans')).count(), 2);
  });

  it('tells a borrower without loans so, with the way to apply', async () => {
    // A borrower as an operator adds one, before any loan.
    const email = `newcomer-${randomUUID()}@example.com`;
    await portal.server.server.db
      .insertInto('borrower')
      .values({ email, first_name: 'Nia', last_name: 'Newcomer' })
      .execute();
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    await signInBySession(portal, page, { email });
    await loansLoaded(page);
    const empty = page.getByTestId('loans-empty');
    await empty.getByText('You don’t have any loans with us yet.').waitFor();
    assert.equal(await cards(page.getByTestId('loans')).count(), 0);
    assert.equal(await page.getByTestId('closed-loans').count(), 0);
    await empty.getByRole('link', { name: 'Apply for a loan' }).click();
    await page.waitForURL((url) => url.pathname === routes.startApplication.path);
    await page.goBack();
    await loansLoaded(page);
    await assertAccessible(page, 'home without loans');
    await screenshotsAtBothSizes(page, 'home-no-loans');
    assert.deepEqual(errors, []);
  });

  it('takes an anonymous visitor of /doc-checkout/loan/{id}/start through sign-in, back to the checkout', async () => {
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    await page.goto(routes.loanCheckoutStart.href({ loanId: active.id }));
    await page.waitForURL(onPath(routes.signIn.path));
    await submitSignIn(page, DEMO.email, DEMO.password);
    await page.waitForURL(onPath(routes.loanCheckout.href({ loanId: active.id })), { timeout: 20_000 });
    await page.getByRole('heading', { name: 'Review and sign your documents' }).waitFor();
    await page.getByTestId('checkout-loan').getByText(active.reference, { exact: false }).waitFor();

    // Signed in, the forwarder leaves no history entry of its own: Back goes where the borrower was.
    await page.goto(routes.dashboard.path);
    await loansLoaded(page);
    await page.goto(routes.loanCheckoutStart.href({ loanId: active.id }));
    await page.waitForURL(onPath(routes.loanCheckout.href({ loanId: active.id })));
    await page.getByRole('heading', { name: 'Review and sign your documents' }).waitFor();
    await page.goBack();
    await page.waitForURL(onPath(routes.dashboard.path));
    assert.deepEqual(errors, []);
  });

  it('shows not found for another borrower’s loan, an unknown id and a malformed one, and nothing of them', async () => {
    const other = await addLoan(portal.baseUrl, {
      borrowerEmail: 'someone.else@example.com',
      reference: 'LN-900417',
      product: 'Invoice factoring line',
      amountCents: 4_200_000,
      balanceCents: 3_100_000,
      status: 'ACTIVE',
      nextPayment: { dueOn: '2026-09-01', amountCents: 77_700 },
    });
    const ids = [other.id, randomUUID(), 'not-a-loan-id'];
    const pathOf = (index: number, loanId: string) =>
      index === 0 ? routes.loanCheckoutStart.href({ loanId }) : routes.loanCheckout.href({ loanId });
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    await signInBySession(portal, page, { path: pathOf(0, other.id) });
    for (const [index, loanId] of ids.entries()) {
      if (index > 0) await page.goto(pathOf(index, loanId));
      await page.getByRole('heading', { name: 'Loan not found' }).waitFor();
      const text = await page.locator('main').innerText();
      assert.doesNotMatch(text, /LN-900417|Invoice factoring|42,000|Review and sign/);
      assert.equal(
        await page.getByRole('link', { name: 'Back to your account' }).getAttribute('href'),
        routes.dashboard.path,
      );
      if (index === 0) {
        assert.equal(new URL(page.url()).pathname, routes.loanCheckout.href({ loanId }));
        assert.match(await page.title(), /^Loan not found \| /);
        await assertAccessible(page, 'someone else’s loan');
        await screenshotsAtBothSizes(page, 'loan-checkout-not-found');
      }
    }
    assert.deepEqual(errors, []);
  });

  it('reviews and signs every document: rule messages, progress, a toast per signature, then completed', async () => {
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    await signInBySession(portal, page);
    await loansLoaded(page);
    await page.getByRole('link', { name: /Review and sign documents/ }).click();
    await page.waitForURL(onPath(routes.loanCheckout.href({ loanId: active.id })));
    await page.getByRole('heading', { name: 'Review and sign your documents' }).waitFor();

    // Opening the page started the checkout.
    const detail = await borrowerLoan(page, active.id);
    assert.equal(detail.checkout.status, 'in_progress');
    const total = detail.documents.length;
    assert.ok(total >= 2 && detail.documents.some((d) => d.requiresSignature));
    const progress = page.getByRole('progressbar');
    const progressText = page.getByTestId('checkout-progress').locator('p');
    assert.equal(await progressText.innerText(), `0 of ${total} documents done`);
    assert.equal(await progress.getAttribute('aria-valuenow'), '0');
    assert.equal(await progress.getAttribute('aria-valuemax'), String(total));
    assert.equal(await progress.getAttribute('aria-valuetext'), `0 of ${total} documents done`);
    const documents = page.getByTestId('checkout-document');
    assert.equal(await documents.count(), total);
    await assertAccessible(page, 'checkout');
    await screenshotsAtBothSizes(page, 'loan-checkout');

    let done = 0;
    let checkedRules = false;
    for (const doc of detail.documents) {
      const item = documents.filter({ has: page.getByRole('heading', { name: doc.title, exact: true }) });
      const state = item.getByTestId('document-state');
      assert.equal(await state.innerText(), 'To review');
      // The text, on demand.
      const toggle = item.getByRole('button', { name: /^(Read|Hide) document: / });
      assert.equal(await toggle.getAttribute('aria-label'), `Read document: ${doc.title}`);
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      assert.equal(await item.getByTestId('document-body').isVisible(), false);
      await toggle.click();
      assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
      assert.equal(await toggle.getAttribute('aria-label'), `Hide document: ${doc.title}`);
      const firstLine = doc.body.split('\n')[0]!;
      await item.getByTestId('document-body').getByText(firstLine, { exact: false }).first().waitFor();
      await item.getByRole('button', { name: `Mark as reviewed: ${doc.title}` }).click();
      await state.filter(withText('Reviewed')).waitFor();

      if (doc.requiresSignature) {
        const sign = item.getByRole('button', { name: `Sign document: ${doc.title}` });
        const name = item.getByLabel('Your full name');
        // Straight to the signature.
        await page.waitForFunction(() => document.activeElement?.getAttribute('autocomplete') === 'name');
        if (!checkedRules) {
          checkedRules = true;
          await sign.click();
          await item.getByText('Type your full name to sign.').waitFor();
          await item.getByText('Confirm that you have read and agree to the document.').waitFor();
          assert.equal(await name.getAttribute('aria-invalid'), 'true');
          await name.fill('   ');
          await sign.click();
          await item.getByText('Type your full name to sign.').waitFor();
          await assertAccessible(page, 'checkout, signature with errors');
          await screenshot(page, 'loan-checkout-signature-errors');
        }
        await name.fill(`${DEMO.firstName} ${DEMO.lastName}`);
        await item
          .getByRole('checkbox', { name: `I have read and agree to \u201c${doc.title}\u201d` })
          .check();
        await sign.click();
        await state.filter(withText('Signed')).waitFor();
        await page
          .getByTestId('toast')
          .filter(withText('Document signed'))
          .filter(withText(`You signed \u201c${doc.title}\u201d.`))
          .waitFor();
        await item
          .getByTestId('document-signature')
          .filter(withText(`Signed by ${DEMO.firstName} ${DEMO.lastName}`))
          .waitFor();
      }
      done += 1;
      if (done < total) {
        await progressText.filter(withText(`${done} of ${total} documents done`)).waitFor();
        assert.equal(await progress.getAttribute('aria-valuenow'), String(done));
      }
      if (done === 2) await screenshotsAtBothSizes(page, 'loan-checkout-in-progress');
    }

    // Completed: a success toast, the completed view with the focus on it, and the way home.
    await page.getByTestId('toast').filter(withText('Checkout complete')).waitFor();
    const complete = page.getByTestId('checkout-complete');
    await complete.getByRole('heading', { name: 'You\u2019re all set' }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'You\u2019re all set');
    assert.equal(await page.getByRole('progressbar').count(), 0);
    assert.equal(await page.getByRole('button', { name: /Mark as reviewed|Sign document/ }).count(), 0);
    // The pointer on the toasts holds them while the page is checked.
    await page.getByTestId('toast').filter(withText('Checkout complete')).hover();
    await assertAccessible(page, 'checkout completed, with toasts');
    await screenshotsAtBothSizes(page, 'loan-checkout-completed');
    await page.mouse.move(5, DESKTOP.height - 5);

    const finished = await borrowerLoan(page, active.id);
    assert.ok(finished.checkout.completedAt, 'the API has the checkout completed');
    for (const doc of finished.documents) {
      assert.equal(doc.state, doc.requiresSignature ? 'signed' : 'reviewed', doc.title);
      if (doc.requiresSignature) assert.equal(doc.signatureName, `${DEMO.firstName} ${DEMO.lastName}`);
    }

    await complete.getByRole('link', { name: 'Back to your account' }).click();
    await page.waitForURL(onPath(routes.dashboard.path));
    await loansLoaded(page);
    assert.equal(await page.getByRole('link', { name: /Review and sign documents/ }).count(), 0);

    // Opened again, the page shows the completed checkout at once, and no new toast.
    await page.goto(routes.loanCheckout.href({ loanId: active.id }));
    await page.getByRole('heading', { name: 'You\u2019re all set' }).waitFor();
    assert.equal(await page.getByTestId('toast').count(), 0);
    assert.deepEqual(errors, []);
  });
});
