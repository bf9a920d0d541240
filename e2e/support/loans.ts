import assert from 'node:assert/strict';
import {
  LoanPaymentsSchema,
  paymentEndpoints,
  type LoanPayments,
  ACCESS_TOKEN_STORAGE_KEY,
  BorrowerListSchema,
  DocumentListSchema,
  LoanDetailSchema,
  LoanListSchema,
  OperatorLoanSchema,
  operatorEndpoints,
  type AddLoanRequest,
  type DocumentList,
  type LoanDetail,
  type LoanSummary,
  type OperatorLoan,
  loanEndpoints,
  documentEndpoints,
} from '@customer-core/contracts';
import type { Page } from 'playwright-core';

// What the loan browser tests share: the operators' API (to give another borrower a loan), the
// borrower API as the signed-in page sees it (to know what the screens should show), and the figures
// as the portal writes them.

/** A service credential for the test server (the operators' API takes it as a Bearer token). */
export const OPERATOR_SECRET = 'e2e-operator-secret-for-browser-tests-only';
export const OPERATOR_ENV = { SERVICE_CREDENTIALS: `operator:operator:${OPERATOR_SECRET}` };

async function operatorCall(baseUrl: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${OPERATOR_SECRET}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  assert.ok(response.ok, `${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as unknown;
}

/** Adds a loan through the operators' API (as `npm run cli` does). */
export async function addLoan(baseUrl: string, loan: AddLoanRequest): Promise<OperatorLoan> {
  return OperatorLoanSchema.parse(await operatorCall(baseUrl, 'POST', operatorEndpoints.loans.path, loan));
}

/** How many loans the operators see for a borrower: HIDDEN ones included. */
export async function loanCountOf(baseUrl: string, email: string): Promise<number> {
  const { borrowers } = BorrowerListSchema.parse(
    await operatorCall(baseUrl, 'GET', operatorEndpoints.borrowers.path),
  );
  const borrower = borrowers.find((b) => b.email.toLowerCase() === email.toLowerCase());
  assert.ok(borrower, `${email} is a borrower`);
  return borrower.loans;
}

/** A GET of the borrower API with the page's own product token, as the portal makes it. */
async function asBorrower(page: Page, path: string): Promise<unknown> {
  const { status, body } = await page.evaluate(
    async ([url, key]) => {
      const token = localStorage.getItem(key!);
      const response = await fetch(url!, { headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, body: await response.text() };
    },
    [path, ACCESS_TOKEN_STORAGE_KEY],
  );
  assert.equal(status, 200, `GET ${path} answered ${status}: ${body}`);
  return JSON.parse(body) as unknown;
}

/** A POST of the borrower API with the page's own product token, as a client other than the portal might. */
export async function postAsBorrower(
  page: Page,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const { status, text } = await page.evaluate(
    async ([url, key, json]) => {
      const token = localStorage.getItem(key!);
      const response = await fetch(url!, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: json!,
      });
      return { status: response.status, text: await response.text() };
    },
    [path, ACCESS_TOKEN_STORAGE_KEY, JSON.stringify(body)],
  );
  return { status, body: JSON.parse(text) as Record<string, unknown> };
}

export async function borrowerLoans(page: Page): Promise<LoanSummary[]> {
  return LoanListSchema.parse(await asBorrower(page, loanEndpoints.loans.path)).loans;
}

export async function borrowerLoan(page: Page, loanId: string): Promise<LoanDetail> {
  return LoanDetailSchema.parse(await asBorrower(page, loanEndpoints.loan.href({ loanId })));
}

/** The loan's payments, autopay and payment options, as the page's borrower reads them. */
export async function borrowerLoanPayments(page: Page, loanId: string): Promise<LoanPayments> {
  return LoanPaymentsSchema.parse(await asBorrower(page, paymentEndpoints.loanPayments.href({ loanId })));
}

export async function borrowerDocuments(page: Page): Promise<DocumentList> {
  return DocumentListSchema.parse(await asBorrower(page, documentEndpoints.documents.path));
}

/** Cents as the portal writes them: $1,234.56. */
export function usd(cents: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
}

export { DESKTOP, PHONE } from './browser.js';

/** Two frames: what the page does on seeing a change (an IntersectionObserver's first answer) is done. */
export const nextFrames = (page: Page) =>
  page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

/**
 * Opens a document of the checkout in its reading view and reads it to the end (scrolls its end into
 * view), which reviews it; back at the list.
 */
export async function readToTheEnd(page: Page, title: string): Promise<void> {
  await page
    .getByRole('button', { name: new RegExp(`^Read (document|again): ${escapeRegExp(title)}$`) })
    .click();
  const reading = page.getByTestId('checkout-reading');
  await reading.getByRole('heading', { level: 2, name: title, exact: true }).waitFor();
  await reading.getByTestId('document-end').scrollIntoViewIfNeeded();
  await reading.getByTestId('reading-reviewed').waitFor();
  await reading.getByRole('button', { name: 'Back to your documents' }).first().click();
  await page.getByTestId('checkout-document').first().waitFor();
}

/** The adopted signature, once, for every document the summary lists; the consent first if asked. */
export async function signAll(page: Page, name: string): Promise<void> {
  const form = page.getByTestId('sign-all-form');
  const consent = form.getByRole('checkbox', { name: 'I agree to sign electronically' });
  if (await consent.count()) await consent.check();
  await form.getByLabel('Your full name').fill(name);
  await form.getByRole('checkbox', { name: 'I have read and agree to these documents' }).check();
  await form.getByRole('button', { name: 'Sign all' }).click();
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
