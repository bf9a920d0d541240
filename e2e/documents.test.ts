import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { routes, type LoanSummary } from '@customer-core/contracts';
import type { Page } from 'playwright-core';
import { extractText, getDocumentProxy } from 'unpdf';
import { assertAccessible } from './support/accessibility.js';
import { collectPageErrors, screenshot, screenshotsAtBothSizes } from './support/browser.js';
import { onPath, withText } from './support/getting-back-in.js';
import { OPERATOR_ENV, borrowerLoan, borrowerLoans, readToTheEnd, signAll } from './support/loans.js';
import { DEMO, openPortal, signInBySession, type Portal } from './support/portal.js';

// The documents page, the reading view and a signed document's PDF, against the real server. The
// server is this file's own: the test signs a document.

const SIGNER = `${DEMO.firstName} ${DEMO.lastName}`;

const documentsLoaded = (page: Page) => page.getByTestId('documents-loan').first().waitFor();

describe('documents (browser)', () => {
  let portal: Portal;
  let active: LoanSummary;
  // The demo borrower's page, signed in once: both tests go on in it.
  let page: Page;
  let errors: string[];
  before(async () => {
    portal = await openPortal(OPERATOR_ENV);
    ({ page } = await portal.newPage());
    errors = collectPageErrors(page);
    await signInBySession(portal, page);
    const found = (await borrowerLoans(page)).find((loan) => loan.status === 'ACTIVE');
    assert.ok(found, 'the demo borrower has an active loan');
    active = found;
  });
  after(() => portal?.close());

  it('lists every document with its state, reached from the navigation', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Documents' }).first().click();
    await page.waitForURL(onPath(routes.documents.path));
    await documentsLoaded(page);
    const group = page.getByTestId('documents-loan').filter({ hasText: active.reference });
    const states = await group.getByTestId('document-state').allInnerTexts();
    assert.deepEqual(states, ['To sign', 'To sign', 'To review', 'To review', 'To sign']);
    await assertAccessible(page, 'documents');
    await screenshotsAtBothSizes(page, 'documents');

    // A document still to sign, opened: its reading view leads to the loan's checkout to sign it.
    await group.getByRole('link', { name: 'Loan agreement', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Loan agreement' }).waitFor();
    await assertAccessible(page, 'reading view of a document to sign');
    await page.getByTestId('document-sign').click();
    await page.waitForURL(onPath(routes.loanCheckout.href({ loanId: active.id })));
    await page.getByRole('heading', { name: 'Review and sign your documents' }).waitFor();
    assert.deepEqual(errors, []);
  });

  it('signs the documents through checkout, then downloads a PDF with its certificate', async () => {
    // (The checkout's words: apps/web/test/checkout.test.tsx.)
    await page.goto(routes.loanCheckout.href({ loanId: active.id }));
    await page.getByRole('heading', { name: 'Review and sign your documents' }).waitFor();
    const detail = await borrowerLoan(page, active.id);
    for (const doc of detail.documents) await readToTheEnd(page, doc.title);
    await signAll(page, SIGNER);
    await page.getByTestId('checkout-complete').waitFor();
    const item = page
      .getByTestId('checkout-document')
      .filter({ has: page.getByRole('heading', { name: 'Loan agreement', exact: true }) });
    await item.getByTestId('document-state').filter(withText('Signed')).waitFor();

    // From the documents page to the reading view of the signed document.
    await page.goto(routes.documents.path);
    await documentsLoaded(page);
    await page.getByRole('link', { name: 'Loan agreement', exact: true }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Loan agreement' }).waitFor();
    const fingerprint = (await page.getByTestId('document-fingerprint').innerText()).trim();
    assert.match(fingerprint, /^[0-9a-f]{64}$/);
    assert.equal(await page.getByTestId('document-signer').innerText(), `${SIGNER}, ${DEMO.email}`);
    assert.ok((await page.getByRole('heading', { level: 2 }).count()) >= 5, 'clauses are headings');
    await page.getByRole('button', { name: 'Print' }).waitFor();
    await assertAccessible(page, 'reading view');
    await screenshotsAtBothSizes(page, 'document-reading');
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.getByRole('button', { name: 'Print' }).isVisible(), false);
    assert.equal(await page.locator('.app-header').isVisible(), false);
    await screenshot(page, 'document-reading-print');
    await page.emulateMedia({ media: 'screen' });

    await page.goto(routes.documents.path);
    await documentsLoaded(page);
    const row = page
      .getByTestId('document-row')
      .filter({ has: page.getByRole('link', { name: 'Loan agreement', exact: true }) })
      .filter({ has: page.getByTestId('download-pdf') })
      .first();
    assert.match(await row.getByTestId('document-state').innerText(), /^Signed /);
    // Every state in one column and every download in the next, whatever the row (signed or reviewed).
    const edges = async (testId: string, edge: 'left' | 'right') =>
      new Set(
        await page
          .getByTestId(testId)
          .evaluateAll((nodes, side) => nodes.map((n) => Math.round(n.getBoundingClientRect()[side])), edge),
      );
    assert.equal((await edges('document-state', 'right')).size, 1, 'the states share a right edge');
    assert.equal((await edges('download-pdf', 'left')).size, 1, 'the downloads share a left edge');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: 'Download signed PDF: Loan agreement' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^ln-demo-1-loan-agreement-signed\.pdf$/);
    const bytes = await readFile(await download.path());
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
    assert.ok(text.includes(SIGNER), 'the signer’s name as typed');
    assert.ok(text.includes(fingerprint), 'the fingerprint');
    // Who signed: the account's name and address, the consent, how they had signed in.
    assert.match(text, new RegExp(`SIGNER’S ACCOUNT NAME\\s+${SIGNER}`));
    assert.match(text, new RegExp(`SIGNER’S ACCOUNT EMAIL ADDRESS\\s+${DEMO.email}`));
    assert.match(
      text,
      /CONSENT TO SIGN ELECTRONICALLY\s+Given \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(text version esign-/,
    );
    assert.match(text, /SIGN-IN METHOD\s+Password \(amr: pwd\)/);
    assert.match(text, /SECOND FACTOR\s+None/);
    assert.match(text, /CLIENT ADDRESS\s+(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)/);
    assert.ok(!text.includes('Not recorded'), 'every fact recorded');
    await screenshotsAtBothSizes(page, 'documents-signed');
    assert.deepEqual(errors, []);
  });
});
