import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { readFile } from 'node:fs/promises';
import {
  ESIGN_CONSENT,
  OPEN_LOAN_STATUSES,
  loanEndpoints,
  routes,
  type LoanSummary,
} from '@customer-core/contracts';
import type { Locator, Page } from 'playwright-core';
import { assertAccessible } from './support/accessibility.js';
import { collectPageErrors, focusReturnsTo, screenshot, screenshotsAtBothSizes } from './support/browser.js';
import { onPath } from './support/getting-back-in.js';
import {
  DESKTOP,
  OPERATOR_ENV,
  PHONE,
  addLoan,
  borrowerLoan,
  borrowerLoans,
  loanCountOf,
  nextFrames,
  postAsBorrower,
  readToTheEnd,
  signAll,
} from './support/loans.js';
import { DEMO, openPortal, signInBySession, submitSignIn, type Portal } from './support/portal.js';

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

// The signed-in home's loans and the loan checkout, against the real server: the demo borrower is
// seeded with a loan in each status and the documents of the active one. The server is this file's
// own: the checkout test signs the documents.

const isOpen = (loan: LoanSummary) => (OPEN_LOAN_STATUSES as readonly string[]).includes(loan.status);
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

  it('sums the open loans up on the home, and lists every loan by status on the Loans page, no HIDDEN one', async () => {
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

    // The home: what is next on each open loan, no card, nothing of the closed ones.
    const summaries = page.getByTestId('open-loan-summaries');
    await summaries.getByTestId('loan-summary').first().waitFor();
    assert.deepEqual(
      await summaries
        .getByTestId('loan-summary')
        .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-reference'))),
      open.map((l) => l.reference),
    );
    assert.equal(await page.getByTestId('loan-card').count(), 0);
    const homeText = await page.locator('main').innerText();
    for (const loan of closed)
      assert.ok(!homeText.includes(loan.reference), `${loan.reference} not on the home`);
    // The past-due loan says on the home what is owed and how late, as its own page does.
    const pastDue = loans.find((loan) => loan.status === 'PAST DUE')!;
    assert.ok(pastDue.overdue, 'the demo past-due loan has a missed instalment');
    assert.equal(
      await summaries
        .locator(`[data-reference="${pastDue.reference}"]`)
        .getByTestId('loan-overdue')
        .innerText(),
      `${dollars.format(pastDue.overdue.amountCents / 100)} past due, ${pastDue.overdue.daysLate} days late.`,
    );
    await assertAccessible(page, 'home with loans');
    await screenshotsAtBothSizes(page, 'home-loans');

    // The Loans page: every loan in full, open ones first.
    await page.getByRole('link', { name: 'See all your loans' }).click();
    await page.waitForURL(onPath(routes.loans.path));
    // The home stays shown (marked busy) while the Loans page's code loads: its cards say it is there.
    const openList = page.getByTestId('open-loans');
    await cards(openList).first().waitFor();
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
    // Open loans come first in the page.
    const openTop = (await openList.boundingBox())!.y;
    assert.ok(openTop < (await closedList.boundingBox())!.y, 'open loans above closed ones');

    // (Each card's words, money, next payment and way to its documents, and the closed loans' heading:
    // apps/web/test/loans.test.tsx. The checkout test follows the active loan's way to its documents.)
    const colours = await page
      .getByTestId('loan-status')
      .evaluateAll((badges) => badges.map((b) => getComputedStyle(b).backgroundColor));
    assert.equal(new Set(colours).size, loans.length, 'each status has its own colour');

    await assertAccessible(page, 'loans page');
    await screenshotsAtBothSizes(page, 'loans-page');
    await page.goBack();
    await loansLoaded(page);
    assert.deepEqual(homeErrors, []);
  });

  it('says so on the home when the loans cannot be loaded', async () => {
    // (Its words, and "Try again": loans.test.tsx.) The home of the first test, loaded again.
    const page = home;
    await page.route('**/api/borrower/loans', (route) =>
      route.fulfill({ status: 503, contentType: 'text/html', body: '<h1>503 Service Unavailable</h1>' }),
    );
    await page.reload();
    await page.getByTestId('loans-error').waitFor();
    await assertAccessible(page, 'home, loans failed');
    await screenshot(page, 'home-loans-error');
    await page.unroute('**/api/borrower/loans');
    assert.deepEqual(homeErrors, []);
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
    // (Its words, and no closed loans: loans.test.tsx.)
    const empty = page.getByTestId('loans-empty');
    assert.equal(await cards(page.getByTestId('loans')).count(), 0);
    await empty.getByRole('link', { name: 'Apply for a loan' }).click();
    await page.waitForURL((url) => url.pathname === routes.startApplication.path);
    await page.goBack();
    await loansLoaded(page);
    await assertAccessible(page, 'home without loans');
    await screenshotsAtBothSizes(page, 'home-no-loans');
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
      if (index === 0) {
        assert.equal(new URL(page.url()).pathname, routes.loanCheckout.href({ loanId }));
        assert.match(await page.title(), /^Loan not found \| /);
        await assertAccessible(page, 'someone else’s loan');
        await screenshotsAtBothSizes(page, 'loan-checkout-not-found');
      }
    }
    assert.deepEqual(errors, []);
  });

  it('the loan checkout from its link: signed in through the form, then every document reviewed and signed', async (t) => {
    // Signed in through the form by the first step, which the second goes on from.
    let checkoutPage: Page;
    await t.test(
      'takes an anonymous visitor of /doc-checkout/loan/{id}/start through sign-in, back to the checkout',
      async () => {
        const { page } = await portal.newPage();
        checkoutPage = page;
        const errors = collectPageErrors(page);
        // What the sign-in page fetches ahead once the password is accepted, until the redirect lands on
        // the callback: the callback's code, not the home's, as this sign-in leads elsewhere.
        const fetchedAhead: string[] = [];
        let aheadOfCallback = false;
        page.on('response', (response) => {
          if (new URL(response.url()).pathname === '/api/v1/authn') aheadOfCallback = true;
        });
        page.on('framenavigated', (frame) => {
          if (frame === page.mainFrame() && onPath(routes.loginCallback.path)(new URL(frame.url())))
            aheadOfCallback = false;
        });
        page.on('request', (request) => {
          const chunk = /\/assets\/(login-callback-screen|signed-in-home)-[\w-]+\.js$/.exec(request.url());
          if (aheadOfCallback && chunk) fetchedAhead.push(chunk[1]!);
        });
        await page.goto(routes.loanCheckoutStart.href({ loanId: active.id }));
        await page.waitForURL(onPath(routes.signIn.path));
        await submitSignIn(page, DEMO.email, DEMO.password);
        await page.waitForURL(onPath(routes.loanCheckout.href({ loanId: active.id })), { timeout: 20_000 });
        assert.deepEqual(fetchedAhead, ['login-callback-screen']);
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
        await loansLoaded(page);
        assert.deepEqual(errors, []);
      },
    );

    await t.test(
      'reviews and signs every document, then completed: the API’s checkout, the states swept on the way',
      async () => {
        // (The checkout's states, progress, toasts, the signature's rules and the completed view's focus:
        // apps/web/test/checkout.test.tsx and loans.test.tsx.) The borrower the step before signed in.
        const page = checkoutPage;
        const errors = collectPageErrors(page);
        await page.getByRole('link', { name: /Review and sign documents/ }).click();
        await page.waitForURL(onPath(routes.loanCheckout.href({ loanId: active.id })));
        await page.getByRole('heading', { name: 'Review and sign your documents' }).waitFor();

        // Opening the page (first in the step before) started the checkout.
        const detail = await borrowerLoan(page, active.id);
        assert.equal(detail.checkout.status, 'in_progress');
        const total = detail.documents.length;
        assert.ok(total >= 2 && detail.documents.some((d) => d.requiresSignature));
        const documents = page.getByTestId('checkout-document');
        assert.equal(await documents.count(), total);
        await assertAccessible(page, 'checkout');
        await screenshotsAtBothSizes(page, 'loan-checkout');

        // A long document is not reviewed by opening it: only once read to its end, on a phone too,
        // in the page's own flow (no box of its own that scrolls).
        await page.setViewportSize(PHONE);
        const [first, ...rest] = detail.documents;
        await page.getByRole('button', { name: `Read document: ${first!.title}` }).click();
        const reading = page.getByTestId('checkout-reading');
        await reading.getByRole('heading', { level: 2, name: first!.title, exact: true }).waitFor();
        await nextFrames(page);
        assert.equal((await borrowerLoan(page, active.id)).documents[0]!.state, 'to_review');
        assert.equal(await reading.getByTestId('reading-reviewed').count(), 0);
        const scrollBoxes = await page.evaluate(
          () =>
            [...document.querySelectorAll('[data-testid="checkout-reading"] *')].filter((node) =>
              /auto|scroll/.test(getComputedStyle(node).overflowY),
            ).length,
        );
        assert.equal(scrollBoxes, 0, 'no box of its own that scrolls');
        assert.ok((await reading.getByRole('heading', { level: 3 }).count()) >= 5, 'clauses are headings');
        await assertAccessible(page, 'checkout, reading a document');
        await screenshotsAtBothSizes(page, 'loan-checkout-reading');
        await page.setViewportSize(PHONE);
        await reading.getByTestId('document-end').scrollIntoViewIfNeeded();
        await reading.getByTestId('reading-reviewed').waitFor();
        assert.equal((await borrowerLoan(page, active.id)).documents[0]!.state, 'reviewed');
        await screenshot(page, 'loan-checkout-read-to-the-end-phone');
        await page.setViewportSize(DESKTOP);
        // The next one from the end of this one.
        await reading.getByRole('button', { name: `Next document: ${rest[0]!.title}` }).click();
        await reading.getByRole('heading', { level: 2, name: rest[0]!.title, exact: true }).waitFor();
        await reading.getByRole('button', { name: 'Back to your documents' }).first().click();
        const form = page.getByTestId('sign-all-form');
        // No signature before every document is read.
        await page.getByTestId('sign-waiting').waitFor();
        assert.equal(await form.count(), 0);
        // A document with nothing to sign is left to read after the signature.
        const readLater = rest.filter((d) => !d.requiresSignature).slice(-1);
        assert.equal(readLater.length, 1, 'a document with nothing to sign');
        for (const doc of rest) if (!readLater.includes(doc)) await readToTheEnd(page, doc.title);

        // One signature for all, with a summary of what is signed, and the consent to sign electronically.
        const toSign = detail.documents.filter((d) => d.requiresSignature).map((d) => d.title);
        assert.deepEqual(
          await form.getByTestId('sign-summary').getByRole('listitem').allInnerTexts(),
          toSign,
        );
        await form.getByRole('heading', { name: `You’re signing ${toSign.length} documents` }).waitFor();
        await form
          .getByTestId('esign-consent')
          .getByText('electronic signature has the same legal effect', {
            exact: false,
          })
          .waitFor();
        await form.getByRole('button', { name: 'Sign all' }).click();
        await form.getByText('Type your full name to sign.').waitFor();
        await form.getByText('Confirm that you agree to sign electronically.').waitFor();
        await form.getByText('Confirm that you have read and agree to the documents.').waitFor();
        await assertAccessible(page, 'checkout, signature with errors');
        await screenshotsAtBothSizes(page, 'loan-checkout-signature-errors');
        // Any text is not a signature: the account's name is.
        await form.getByRole('checkbox', { name: 'I agree to sign electronically' }).check();
        await form.getByRole('checkbox', { name: 'I have read and agree to these documents' }).check();
        await form.getByLabel('Your full name').fill('x');
        await form.getByRole('button', { name: 'Sign all' }).click();
        const mismatch = `This isn’t the name on your account. Type your name as it is on your account: ${DEMO.firstName} ${DEMO.lastName}.`;
        await form.getByText(mismatch).waitFor();
        assert.equal(await page.evaluate(() => document.activeElement?.id), 'checkout-signature-name');
        assert.ok((await borrowerLoan(page, active.id)).documents.every((d) => d.state !== 'signed'));
        await screenshotsAtBothSizes(page, 'loan-checkout-signature-mismatch');
        // Past the page, the API refuses it too, in the same words.
        const forged = await postAsBorrower(page, loanEndpoints.signDocuments.href({ loanId: active.id }), {
          signatureName: 'x',
          documentIds: detail.documents.filter((d) => d.requiresSignature).map((d) => d.id),
          agreed: true,
        });
        assert.deepEqual(
          [forged.status, forged.body.error, forged.body.message],
          [400, 'signature_name_mismatch', mismatch],
        );
        // Leniently: case and spaces.
        await signAll(page, `  ${DEMO.firstName.toLowerCase()}   ${DEMO.lastName} `);

        // Signed, one document still to read: said where the form was, with the focus.
        const signedLine = page.getByTestId('checkout-signed');
        await focusReturnsTo(signedLine, 'the signature’s line has the focus');
        assert.match(
          await signedLine.innerText(),
          /^Documents? signed\. You signed \d+ documents?\. Read the document left to finish\.$/,
        );
        await assertAccessible(page, 'checkout, signed with a document left to read');
        await page.setViewportSize(PHONE);
        await assertAccessible(page, 'checkout, signed with a document left to read (phone)');
        await page.setViewportSize(DESKTOP);
        await screenshotsAtBothSizes(page, 'loan-checkout-signed-one-left');
        await readToTheEnd(page, readLater[0]!.title);

        // Completed: said once, on the page; no toast repeats it.
        const complete = page.getByTestId('checkout-complete');
        const allSet = complete.getByRole('heading', { name: 'You\u2019re all set' });
        await allSet.waitFor();
        // Completed by the last reading: the focus back on that document's button, as after any reading;
        // the completion said in the live region (apps/web/test/checkout.test.tsx).
        await focusReturnsTo(
          page.getByRole('button', { name: `Read again: ${readLater[0]!.title}` }),
          'the focus back on the document read',
        );
        assert.equal(await page.getByTestId('toast').count(), 0, 'no toast');
        await assertAccessible(page, 'checkout completed');
        await screenshotsAtBothSizes(page, 'loan-checkout-completed');

        const finished = await borrowerLoan(page, active.id);
        assert.ok(finished.checkout.completedAt, 'the API has the checkout completed');
        for (const doc of finished.documents) {
          assert.equal(doc.state, doc.requiresSignature ? 'signed' : 'reviewed', doc.title);
          if (doc.requiresSignature)
            assert.equal(doc.signatureName, `${DEMO.firstName.toLowerCase()} ${DEMO.lastName}`);
        }

        // The consent, given on the way, as a copy to keep.
        await complete.getByTestId('esign-consent-given').waitFor();
        const [copy] = await Promise.all([
          page.waitForEvent('download'),
          complete.getByRole('button', { name: 'Download a copy: Consent to sign electronically' }).click(),
        ]);
        assert.equal(copy.suggestedFilename(), 'consent-to-sign-electronically.txt');
        const kept = await readFile(await copy.path(), 'utf8');
        assert.ok(kept.includes(ESIGN_CONSENT.text), 'the text agreed to');
        assert.match(kept, /You agreed on .+\.\nVersion of this text: esign-/);

        await complete.getByRole('link', { name: 'Back to your account' }).click();
        await page.waitForURL(onPath(routes.dashboard.path));
        await loansLoaded(page);
        assert.equal(await page.getByRole('link', { name: /Review and sign documents/ }).count(), 0);

        // Opened again, the page shows the completed checkout at once, and no new toast.
        await page.goto(routes.loanCheckout.href({ loanId: active.id }));
        await page.getByRole('heading', { name: 'You\u2019re all set' }).waitFor();
        assert.equal(await page.getByTestId('toast').count(), 0);
        assert.deepEqual(errors, []);
      },
    );
  });
});
