import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CONSOLE_SESSION_STORAGE_KEY,
  consoleEndpoints,
  consoleRoutes,
  loanEndpoints,
  paymentEndpoints,
  type ConsoleSession,
  type LoanList,
  type LoanPayments,
  type Payment,
} from '@customer-core/contracts';
import {
  mintSession,
  paymentBody,
  STAFF_PASSWORD,
  staffIdToken,
  verifiedBankAccount,
} from '@customer-core/api/testing';
import { assertAccessible } from './support/accessibility.js';
import { collectPageErrors, screenshot } from './support/browser.js';
import { captureBothSizes } from './support/second-factor.js';
import { DEMO, openPortal, type Portal } from './support/portal.js';

// A borrower's payments at the staff console: the demo borrower adds a bank account, verifies it with
// the micro-deposits the lender's file carried to it and schedules a payment (over the API, as the
// portal would); a support agent finds the account, autopay and the payment on the borrower's page,
// cancels the payment with a reason, and sees it cancelled with that reason.

const OPERATOR_SECRET = 'operator-secret-for-console-payment-tests-0123';
const SUPPORT = { email: 'sam.okafor@lender.example', firstName: 'Sam', lastName: 'Okafor' };
const ACCOUNT_NUMBER = '000123456789';
const CANCEL_REASON = 'Borrower called: paying by wire instead, ticket 6120';

describe('a borrower’s payments at the staff console (browser)', () => {
  let portal: Portal;
  let borrowerId: string;
  let payment: Payment;

  /** A call of the API (with a Bearer token, when given), its JSON answer; any failure fails the test. */
  const api = async <T>(method: 'GET' | 'POST', path: string, token: string | null, body?: unknown) => {
    const response = await fetch(`${portal.baseUrl}${path}`, {
      method,
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    assert.ok(response.ok, `${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  };

  before(async () => {
    portal = await openPortal({ SERVICE_CREDENTIALS: `operator:operator:${OPERATOR_SECRET}` });
    await portal.server.server.identityProvider!.users.create({
      login: SUPPORT.email,
      password: STAFF_PASSWORD,
      ...SUPPORT,
      groups: ['support'],
    });

    // The demo borrower, signed in just now (adding a bank account needs a recent sign-in).
    const { accessToken: token, borrower } = await mintSession(portal.server, DEMO.email);
    borrowerId = borrower.id;
    const account = await verifiedBankAccount(portal.baseUrl, token, OPERATOR_SECRET, ACCOUNT_NUMBER);

    // What is past due on the equipment loan, on the second banking day offered: scheduled, and
    // cancellable until the cut-off of the banking day before it.
    const { loans } = await api<LoanList>('GET', loanEndpoints.loans.path, token);
    const loanId = loans.find((loan) => loan.reference === 'LN-DEMO-2')!.id;
    const { options, lender } = await api<LoanPayments>(
      'GET',
      paymentEndpoints.loanPayments.href({ loanId }),
      token,
    );
    const amountCents = options.pastDueCents ?? options.nextInstalment!.amountCents;
    const effectiveOn = options.bankingDays[1] ?? options.earliestDate;
    payment = await api<Payment>(
      'POST',
      paymentEndpoints.makePayment.href({ loanId }),
      token,
      paymentBody({ options, lender }, account, amountCents, effectiveOn),
    );
    assert.equal(payment.status, 'scheduled');
  });
  after(() => portal?.close());

  it('lets a support agent see the borrower’s payments and cancel one with a reason', async () => {
    // Signed in as the console would be (its sign-in is staff-console.test.ts's): the ID token of the
    // agent's sign-in exchanged over HTTP, and the session put where the console keeps it.
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    const idToken = await staffIdToken(portal.server, SUPPORT.email);
    const session = await api<ConsoleSession>('POST', consoleEndpoints.signIn.path, null, { idToken });
    await page.goto('/healthz');
    await page.evaluate(
      ([key, value]) => sessionStorage.setItem(key!, value!),
      [CONSOLE_SESSION_STORAGE_KEY, JSON.stringify(session)],
    );
    await page.goto(consoleRoutes.borrower.href({ borrowerId }));
    await page.getByRole('heading', { level: 1, name: 'Dana Demo' }).waitFor();

    const section = page.getByTestId('borrower-payments');
    const accounts = section.getByTestId('bank-accounts-table');
    await accounts.getByRole('row').filter({ hasText: '••6789' }).getByText('Verified').waitFor();
    assert.doesNotMatch(await section.innerText(), new RegExp(ACCOUNT_NUMBER), 'never the whole number');
    await section.getByText('Autopay isn’t on for any loan.').waitFor();
    const row = section.getByTestId('payments-table').getByRole('row').filter({ hasText: payment.reference });
    assert.match(await row.innerText(), /LN-DEMO-2[\s\S]*••6789[\s\S]*One-time[\s\S]*Scheduled/);
    await captureBothSizes(page, 'console-borrower-payments');

    // Cancel it: not without a reason; then it is cancelled, with the reason beside it.
    await row.getByRole('button', { name: `Cancel payment ${payment.reference}` }).click();
    const dialog = page.getByTestId('cancel-payment-dialog');
    await dialog.getByRole('button', { name: 'Cancel payment' }).click();
    await dialog.getByText('Give a reason', { exact: false }).waitFor();
    await dialog.getByLabel('Reason', { exact: true }).fill(CANCEL_REASON);
    await screenshot(page, 'console-cancel-payment');
    await dialog.getByRole('button', { name: 'Cancel payment' }).click();
    await page.getByText(`Payment ${payment.reference} is cancelled.`, { exact: false }).waitFor();
    const status = row.getByTestId('payment-status');
    await status.getByText('Cancelled', { exact: true }).waitFor();
    await status.getByText(`Reason: ${CANCEL_REASON}`).waitFor();
    await status.getByText('Cancelled by staff.').waitFor();
    assert.equal(await row.getByRole('button', { name: /Cancel payment/ }).count(), 0);
    await assertAccessible(page, 'console borrower payments, one cancelled');
    await screenshot(page, 'console-borrower-payment-cancelled');
    assert.deepEqual(errors, []);
  });
});
