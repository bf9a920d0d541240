import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { ESIGN_CONSENT, routes, type LoanSummary } from '@customer-core/contracts';
import type { Page } from 'playwright-core';
import { extractText, getDocumentProxy } from 'unpdf';
import { assertAccessible } from './support/accessibility.js';
import { collectPageErrors, screenshot, screenshotsAtBothSizes } from './support/browser.js';
import { onPath, withText } from './support/getting-back-in.js';
import {
  DESKTOP,
  OPERATOR_ENV,
  PHONE,
  borrowerLoan,
  borrowerLoans,
  readToTheEnd,
  signAll,
} from './support/loans.js';
import { DEMO, openPortal, signInBySession, type Portal } from './support/portal.js';

// The documents page (loans of every status, rows aligned at both sizes), the reading view, a signed
// document's PDF and one that needs no signature, and the consent's copy, against the real server.
// The server is this file's own: the test signs a document.

const SIGNER = `${DEMO.firstName} ${DEMO.lastName}`;

const documentsLoaded = (page: Page) => page.getByTestId('documents-loan').first().waitFor();

const loanGroup = (page: Page, reference: string) =>
  page.locator(`[data-testid="documents-loan"][data-reference="${reference}"]`);

/** The text of a downloaded PDF. */
async function pdfText(path: string): Promise<string> {
  const bytes = await readFile(path);
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text;
}

/**
 * At both sizes, on every row of every loan, each state badge keeps one place and each download
 * another (wide: the states share a right edge, the downloads a left edge; phone: both stacked, on
 * one left edge each); and no violation for axe.
 */
async function assertRowsAligned(page: Page, label: string) {
  const edges = async (testId: string, edge: 'left' | 'right') =>
    new Set(
      await page
        .getByTestId(testId)
        .evaluateAll((nodes, side) => nodes.map((n) => Math.round(n.getBoundingClientRect()[side])), edge),
    );
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    const stateEdge = size === 'desktop' ? 'right' : 'left';
    assert.equal(
      (await edges('document-state', stateEdge)).size,
      1,
      `${size}: the states share a ${stateEdge} edge`,
    );
    assert.equal((await edges('download-pdf', 'left')).size, 1, `${size}: the downloads share a left edge`);
    // Each download whole within its row: none spills out of its column.
    const spills = await page
      .getByTestId('download-pdf')
      .evaluateAll(
        (buttons) =>
          buttons.filter(
            (b) => b.getBoundingClientRect().right > b.closest('li')!.getBoundingClientRect().right + 0.5,
          ).length,
      );
    assert.equal(spills, 0, `${size}: a download spills out of its row`);
    await assertAccessible(page, `${label} (${size})`);
  }
  await page.setViewportSize(DESKTOP);
}

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
    const group = loanGroup(page, active.reference);
    const states = await group.getByTestId('document-state').allInnerTexts();
    assert.deepEqual(states, ['To sign', 'To sign', 'To review', 'To review', 'To sign']);
    // Every loan's documents, whatever its status: open loans first.
    assert.deepEqual(
      await page
        .getByTestId('documents-loan')
        .evaluateAll((groups) => groups.map((g) => g.getAttribute('data-reference'))),
      ['LN-DEMO-1', 'LN-DEMO-2', 'LN-DEMO-3', 'LN-DEMO-4'],
    );
    for (const reference of ['LN-DEMO-2', 'LN-DEMO-3', 'LN-DEMO-4']) {
      // Past its checkout, a loan asks for nothing: what was not done is said so, nothing to sign.
      const closed = loanGroup(page, reference);
      assert.deepEqual(
        await closed.getByTestId('document-state').allInnerTexts(),
        [
          'Not signed online',
          'Not signed online',
          'Not reviewed online',
          'Not reviewed online',
          'Not signed online',
        ],
        reference,
      );
      assert.equal(await closed.getByRole('link', { name: 'Review and sign documents' }).count(), 0);
      assert.deepEqual(await closed.getByTestId('download-pdf').allInnerTexts(), [
        'Download PDF',
        'Download PDF',
      ]);
    }
    // Each document that needs no signature has its PDF from the start.
    assert.deepEqual(
      await group
        .getByTestId('download-pdf')
        .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label'))),
      ['Download PDF: Cost of capital disclosure', 'Download PDF: Payment schedule'],
    );
    // No consent given yet: nothing to keep a copy of.
    assert.equal(await page.getByTestId('documents-esign-consent').count(), 0);
    await assertRowsAligned(page, 'documents');
    await screenshotsAtBothSizes(page, 'documents');

    // A paid-off loan's payment schedule, as a PDF: its text, no signature certificate.
    const [schedule] = await Promise.all([
      page.waitForEvent('download'),
      loanGroup(page, 'LN-DEMO-3').getByRole('button', { name: 'Download PDF: Payment schedule' }).click(),
    ]);
    assert.equal(schedule.suggestedFilename(), 'ln-demo-3-payment-schedule.pdf');
    const scheduleText = await pdfText(await schedule.path());
    assert.ok(scheduleText.includes('Payment schedule — loan LN-DEMO-3'), 'the document text');
    assert.ok(!scheduleText.includes('Signature certificate'), 'no certificate');

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
    // Every state in one column and every download in the next, whatever the row (signed, reviewed,
    // not signed) and the loan.
    await assertRowsAligned(page, 'documents, signed');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: 'Download signed PDF: Loan agreement' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^ln-demo-1-loan-agreement-signed\.pdf$/);
    const text = await pdfText(await download.path());
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

    // Reviewed in the checkout: its PDF says when.
    const disclosure = loanGroup(page, active.reference)
      .getByTestId('document-row')
      .filter({ has: page.getByRole('link', { name: 'Cost of capital disclosure', exact: true }) });
    assert.match(await disclosure.getByTestId('document-state').innerText(), /^Reviewed /);
    const [reviewed] = await Promise.all([
      page.waitForEvent('download'),
      disclosure.getByRole('button', { name: 'Download PDF: Cost of capital disclosure' }).click(),
    ]);
    assert.equal(reviewed.suggestedFilename(), 'ln-demo-1-cost-of-capital-disclosure.pdf');
    assert.match(await pdfText(await reviewed.path()), /Reviewed on \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);

    // The consent the signatures were made under, as a copy to keep.
    const consentLine = page.getByTestId('documents-esign-consent');
    assert.match(
      await consentLine.innerText(),
      /^You agreed to sign electronically on .+\. Download a copy$/,
    );
    const [copy] = await Promise.all([
      page.waitForEvent('download'),
      consentLine.getByRole('button', { name: 'Download a copy: Consent to sign electronically' }).click(),
    ]);
    assert.equal(copy.suggestedFilename(), 'consent-to-sign-electronically.txt');
    assert.ok((await readFile(await copy.path(), 'utf8')).includes(ESIGN_CONSENT.text), 'the text agreed to');
    await screenshotsAtBothSizes(page, 'documents-signed');
    assert.deepEqual(errors, []);
  });
});
