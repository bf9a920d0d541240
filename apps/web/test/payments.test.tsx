import { LENDER } from './support/dom.ts';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import {
  ACCESS_TOKEN_STORAGE_KEY,
  PAYMENT_ERROR_CODES,
  RETURN_REASONS,
  loanEndpoints,
  paymentAuthorizationText,
  paymentEndpoints,
  routes,
  type BankAccount,
  type LoanDetail,
  type LoanPayments,
  type LoanSummary,
  type MakePaymentRequest,
  type Payment,
} from '@customer-core/contracts';
import { generateMessageId } from '@lingui/message-utils/generateMessageId';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { LoanCard } from '../src/features/dashboard/loan-card.tsx';
import { LoanPaymentSections } from '../src/features/payments/loan-payment-sections.tsx';
import { PayLoanScreen } from '../src/features/payments/pay-loan-screen.tsx';
import { returnReasonWords } from '../src/features/payments/payment-words.ts';
import { serveApi, type Answers, type TestApi } from './support/api.ts';
import { press, type } from './support/forms.ts';
import { i18n } from './support/i18n.ts';
import { InPortalLanguage, expectFocus, expectNone, renderInApp } from './support/render.tsx';

// Paying a loan as the borrower does it: the amounts the loan's options offer, the other amount's
// checks, the review with the authorization whose fingerprint is sent (the same idempotency key on
// every try of one submission), the payment made; the loan page's payments, their statuses in words
// and cancelling one, autopay turned on; and the review step in Spanish.

const LOAN: LoanDetail = {
  id: 'loan-1',
  reference: 'LN-DEMO-2',
  product: 'Equipment loan',
  status: 'PAST DUE',
  amountCents: 5_000_000,
  balanceCents: 1_000_000,
  nextPayment: { dueOn: '2036-09-01', amountCents: 125_000 },
  checkout: {
    status: 'completed',
    startedAt: '2036-01-01T10:00:00Z',
    completedAt: '2036-01-01T10:05:00Z',
    documents: 0,
    documentsDone: 0,
  },
  documents: [],
  instalments: [],
  overdue: { amountCents: 231_275, daysLate: 12, since: '2036-07-01', instalments: 1 },
};

const ACCOUNT: BankAccount = {
  id: 'account-1',
  holderName: 'Demo Supplies LLC',
  bankName: 'JPMorgan Chase',
  routingNumber: '021000021',
  last4: '6789',
  type: 'checking',
  status: 'verified',
  microDepositsSent: true,
  triesLeft: 0,
  returnCode: null,
  createdAt: '2036-06-01T10:00:00Z',
};
const WAITING: BankAccount = {
  ...ACCOUNT,
  id: 'account-2',
  bankName: 'Bank of America',
  last4: '1111',
  status: 'pending_verification',
  triesLeft: 3,
};

const OPTIONS: LoanPayments['options'] = {
  pastDueCents: 231_275,
  nextInstalment: { dueOn: '2036-09-01', amountCents: 125_000 },
  payoffCents: 1_000_000,
  earliestDate: '2036-08-04',
  latestDate: '2036-08-06',
  bankingDays: ['2036-08-04', '2036-08-05', '2036-08-06'],
  maxPaymentCents: 500_000,
  cutoff: { time: '14:00', timeZone: 'America/New_York' },
};

const facts = (changes: Partial<LoanPayments> = {}): LoanPayments => ({
  options: OPTIONS,
  payments: [],
  autopay: { enabled: false, bankAccount: null, nextDebit: null, changeBy: null },
  lender: LENDER,
  ...changes,
});

function payment(id: string, changes: Partial<Payment> = {}): Payment {
  return {
    id,
    reference: `PMT-${id.toUpperCase()}`,
    loanId: LOAN.id,
    amountCents: 231_275,
    effectiveOn: '2036-08-04',
    status: 'scheduled',
    kind: 'one_time',
    bankAccount: { id: ACCOUNT.id, bankName: ACCOUNT.bankName, last4: ACCOUNT.last4 },
    cancellableUntil: '2036-08-03T18:00:00.000Z',
    returnCode: null,
    createdAt: '2036-08-01T10:00:00.000Z',
    settledAt: null,
    ...changes,
  };
}

const LOAN_CALL = `GET ${loanEndpoints.loan.href({ loanId: LOAN.id })}`;
const PAYMENTS_CALL = `GET ${paymentEndpoints.loanPayments.href({ loanId: LOAN.id })}`;
const ACCOUNTS_CALL = `GET ${paymentEndpoints.bankAccounts.path}`;
const PAY_CALL = `POST ${paymentEndpoints.makePayment.href({ loanId: LOAN.id })}`;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The pay screen at its address, with the loan's page behind "Back to your loan". */
function renderPayScreen() {
  return renderInApp(
    <Routes>
      <Route path={routes.payLoan.path} element={<PayLoanScreen />} />
      <Route path={routes.loanDetails.path} element={<p>The loan’s page</p>} />
    </Routes>,
    { path: routes.payLoan.href({ loanId: LOAN.id }) },
  );
}

const payCalls = (api: TestApi) =>
  api.calls.filter((c) => `${c.method} ${c.path}` === PAY_CALL).map((c) => c.body as MakePaymentRequest);

/** Through step 1 with the amount chosen, to the review. */
async function toReview(choice: RegExp) {
  fireEvent.click(await screen.findByRole('radio', { name: choice }));
  await press('Review payment');
  await expectFocus(screen.getByRole('heading', { level: 2, name: 'Review and authorize' }));
}

/** The portal's Spanish catalogue, as the build compiles it: ids from each message and its context. */
function spanishCatalogue(): Record<string, string> {
  const po = readFileSync(path.join(import.meta.dirname, '../src/locales/es-US/portal.po'), 'utf8');
  const messages: Record<string, string> = {};
  const unquote = (lines: string) =>
    lines
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as string)
      .join('');
  for (const match of po.matchAll(
    /((?:#.*\n)*)(?:msgctxt (".*")\n)?msgid ((?:".*"\n)+)msgstr ((?:".*"\n?)+)/g,
  )) {
    const [, comments, context, id, translation] = match;
    const source = unquote(id!);
    if (!source) continue;
    const explicit = comments!.includes('js-lingui-explicit-id');
    const key = explicit ? source : generateMessageId(source, context ? (JSON.parse(context) as string) : '');
    messages[key] = unquote(translation!);
  }
  return messages;
}

describe('the way to pay', () => {
  it('is an open loan’s main action once its documents are signed, named by the loan', () => {
    const summary = (fields: Partial<LoanSummary>): LoanSummary => ({
      id: LOAN.id,
      reference: LOAN.reference,
      product: LOAN.product,
      status: 'PAST DUE',
      amountCents: LOAN.amountCents,
      balanceCents: LOAN.balanceCents,
      nextPayment: LOAN.nextPayment,
      overdue: LOAN.overdue,
      checkout: LOAN.checkout,
      ...fields,
    });
    const toSign = { ...LOAN.checkout, status: 'in_progress' as const, completedAt: null, documents: 2 };
    render(
      <MemoryRouter>
        <LoanCard loan={summary({})} open />
        <LoanCard
          loan={summary({ id: 'loan-2', reference: 'LN-2', status: 'ACTIVE', checkout: toSign })}
          open
        />
        <LoanCard loan={summary({ id: 'loan-3', reference: 'LN-3', status: 'PAID' })} open={false} />
      </MemoryRouter>,
      { wrapper: InPortalLanguage },
    );
    const links = screen.getAllByRole('link', { name: /^Make a payment/ });
    assert.deepEqual(
      links.map((link) => [link.getAttribute('aria-label'), link.getAttribute('href')]),
      [['Make a payment on loan LN-DEMO-2', routes.payLoan.href({ loanId: LOAN.id })]],
    );
  });
});

describe('making a payment', () => {
  let api: TestApi | undefined;
  beforeEach(() => localStorage.setItem(ACCESS_TOKEN_STORAGE_KEY, 'product-token'));
  afterEach(async () => {
    localStorage.clear();
    await api?.close();
    api = undefined;
  });

  const serve = (answers: Answers = {}, options = OPTIONS) =>
    serveApi({
      [LOAN_CALL]: { status: 200, body: LOAN },
      [PAYMENTS_CALL]: { status: 200, body: facts({ options }) },
      [ACCOUNTS_CALL]: { status: 200, body: { accounts: [ACCOUNT, WAITING] } },
      ...answers,
    });

  it('offers the past due amount, the next payment, the payoff and another amount, the banking days and the verified accounts', async () => {
    api = await serve();
    renderPayScreen();
    await screen.findByRole('heading', { level: 1, name: 'Make a payment' });
    const amounts = within(screen.getByRole('group', { name: 'Amount' }));
    const radios = amounts.getAllByRole('radio');
    assert.deepEqual(
      radios.map((r) => (r as HTMLInputElement).value),
      ['past_due', 'next', 'payoff', 'other'],
    );
    assert.equal(
      screen.getByTestId('amount-past_due').textContent,
      'Past due amount$2,312.75Brings your loan up to date.',
    );
    assert.equal(screen.getByTestId('amount-next').textContent, 'Next payment$1,250.00Due Sep 1, 2036');
    assert.equal(
      screen.getByTestId('amount-payoff').textContent,
      'Payoff amount$10,000.00Pays off your loan in full.',
    );
    assert.equal((radios[0] as HTMLInputElement).checked, true, 'the past due amount, chosen first');

    const day = screen.getByRole('combobox', { name: 'Payment date' });
    assert.deepEqual(
      within(day)
        .getAllByRole('option')
        .map((o) => o.textContent),
      ['Mon, Aug 4, 2036', 'Tue, Aug 5, 2036', 'Wed, Aug 6, 2036'],
    );
    assert.equal(
      screen.getByTestId('pay-cutoff').textContent,
      'The day the money leaves your account: a banking day. Payments made after 2:00 PM ET go the next banking day.',
    );

    // Only the verified account can pay (chosen, as the only one); the other is verified elsewhere.
    const accounts = within(screen.getByRole('group', { name: 'Pay from' }));
    assert.deepEqual(
      accounts.getAllByRole('radio').map((r) => (r as HTMLInputElement).checked),
      [true],
    );
    accounts.getByRole('radio', { name: /JPMorgan Chase ••6789/ });
    assert.equal(
      accounts.getByRole('link', { name: 'Add or verify a bank account' }).getAttribute('href'),
      routes.bankAccounts.path,
    );
  });

  it('refuses another amount under $1.00, over the online limit or over the payoff, and one that isn’t dollars and cents', async () => {
    api = await serve();
    renderPayScreen();
    const field = await screen.findByRole('textbox', { name: 'Other amount in dollars' });
    // Typing in it chooses it.
    fireEvent.focus(field);
    assert.equal(screen.getByRole<HTMLInputElement>('radio', { name: 'Other amount' }).checked, true);
    const error = () => screen.queryByTestId('pay-other-amount-error')?.textContent;
    await press('Review payment');
    assert.equal(error(), 'Enter the amount to pay.');
    assert.equal(field.getAttribute('aria-invalid'), 'true');
    assert.ok(field.getAttribute('aria-describedby')!.split(' ').includes('pay-other-amount-error'));
    for (const [typed, message] of [
      ['0.99', 'The least you can pay is $1.00.'],
      ['12.345', 'Enter an amount in dollars and cents, like 250.00.'],
      ['ten', 'Enter an amount in dollars and cents, like 250.00.'],
      ['5,000.01', 'That’s more than you can pay at once online, $5,000.00. Call us to pay more.'],
    ] as const) {
      type(field, typed);
      await waitFor(() => assert.equal(error(), message));
    }
    type(field, '$1,250.5');
    await waitFor(() => assert.equal(error(), undefined));
    await press('Review payment');
    await expectFocus(screen.getByRole('heading', { level: 2, name: 'Review and authorize' }));
    assert.equal(screen.getByRole('button', { name: /^Pay / }).textContent, 'Pay $1,250.50');
  });

  it('refuses an amount over the payoff when the payoff is under the online limit', async () => {
    api = await serve({}, { ...OPTIONS, pastDueCents: null, payoffCents: 300_000 });
    renderPayScreen();
    const field = await screen.findByRole('textbox', { name: 'Other amount in dollars' });
    fireEvent.focus(field);
    type(field, '3000.01');
    await press('Review payment');
    assert.equal(
      screen.getByTestId('pay-other-amount-error').textContent,
      'That’s more than your payoff amount, $3,000.00.',
    );
    expectNone(screen.queryByTestId('amount-past_due'), 'a past due amount, with none past due');
  });

  it('sends the fingerprint of the authorization shown, with the same idempotency key on every try, and says what was paid', async () => {
    let tries = 0;
    const made = payment('p-1', { cancellableUntil: '2036-08-01T18:00:00.000Z' });
    api = await serve({
      // The first try fails on the way back (as a lost answer would); the second is answered.
      [PAY_CALL]: () => (++tries === 1 ? { status: 502, body: 'Bad gateway' } : { status: 201, body: made }),
    });
    renderPayScreen();
    await toReview(/Past due amount/);

    const review = within(screen.getByTestId('pay-review'));
    const shown = review.getByTestId('authorization-text').textContent;
    assert.equal(
      shown,
      paymentAuthorizationText({
        locale: 'en-US',
        holderName: ACCOUNT.holderName,
        bankName: ACCOUNT.bankName,
        last4: ACCOUNT.last4,
        lenderName: LENDER.name,
        supportPhone: LENDER.supportPhone,
        terms: { kind: 'one_time', amountCents: 231_275, effectiveOn: '2036-08-04' },
      }),
    );
    assert.equal(
      review.getByTestId('pay-summary').textContent,
      'Amount$2,312.75Payment dateMon, Aug 4, 2036Pay fromJPMorgan Chase ••6789',
    );

    // Not without the checkbox.
    await press('Pay $2,312.75');
    assert.equal(
      screen.getByTestId('pay-authorized-error').textContent,
      'Check the box to authorize this debit.',
    );
    assert.equal(payCalls(api).length, 0);

    fireEvent.click(screen.getByRole('checkbox', { name: 'I authorize this debit' }));
    await press('Pay $2,312.75');
    await screen.findByText(
      'We couldn’t confirm your payment just now. Please try again: it won’t be paid twice.',
    );

    // Tried again with a double click: one request more, with the same key.
    await act(async () => {
      const pay = screen.getByRole('button', { name: 'Pay $2,312.75' });
      fireEvent.click(pay);
      fireEvent.click(pay);
    });
    await expectFocus(await screen.findByRole('heading', { level: 2, name: 'Payment scheduled' }));
    const sent = payCalls(api);
    assert.equal(sent.length, 2);
    assert.match(sent[0]!.idempotencyKey, /^[0-9a-f-]{36}$/);
    assert.equal(sent[1]!.idempotencyKey, sent[0]!.idempotencyKey);
    for (const body of sent)
      assert.deepEqual(body, {
        locale: 'en-US',
        idempotencyKey: sent[0]!.idempotencyKey,
        amountCents: 231_275,
        effectiveOn: '2036-08-04',
        bankAccountId: ACCOUNT.id,
        authorizationSha256: sha256(shown),
        authorized: true,
      });

    const done = within(screen.getByTestId('pay-done'));
    assert.equal(done.getByTestId('payment-reference').textContent, 'PMT-P-1');
    done.getByText('We’ll debit $2,312.75 from JPMorgan Chase ••6789 on Aug 4, 2036.');
    assert.match(
      done.getByTestId('pay-cancel-until').textContent,
      /^You can cancel it until Aug 1, 2036, .+ on your loan’s page\.$/,
    );
    assert.equal(
      done.getByRole('link', { name: 'Back to your loan' }).getAttribute('href'),
      routes.loanDetails.href({ loanId: LOAN.id }),
    );
  });

  it('makes another submission, with another key, of other details; the same details again keep theirs', async () => {
    api = await serve({ [PAY_CALL]: { status: 502, body: 'Bad gateway' } });
    renderPayScreen();
    const payNow = async (amount: string) => {
      fireEvent.click(screen.getByRole('checkbox', { name: 'I authorize this debit' }));
      await press(`Pay ${amount}`);
      await screen.findByTestId('pay-error');
      await press('Change details');
      await expectFocus(screen.getByRole('heading', { level: 2, name: 'Payment details' }));
    };
    await toReview(/Past due amount/);
    await payNow('$2,312.75');
    await toReview(/Next payment/);
    await payNow('$1,250.00');
    await toReview(/Past due amount/);
    await payNow('$2,312.75');
    const [first, other, again] = payCalls(api).map((body) => body.idempotencyKey);
    assert.notEqual(other, first);
    assert.equal(again, first);
  });

  it('goes back to the details with the refusal in words when the day is no longer offered, and asks for the days again', async () => {
    api = await serve({
      [PAY_CALL]: {
        status: 409,
        body: {
          error: PAYMENT_ERROR_CODES.dateUnavailable,
          message: 'That day can’t be chosen any more. Choose a banking day from the ones offered.',
        },
      },
    });
    renderPayScreen();
    await toReview(/Next payment/);
    fireEvent.click(screen.getByRole('checkbox', { name: 'I authorize this debit' }));
    await press('Pay $1,250.00');
    await expectFocus(await screen.findByRole('heading', { level: 2, name: 'Payment details' }));
    assert.equal(
      screen.getByTestId('pay-notice').textContent,
      'That day can’t be chosen any more. Choose a banking day from the ones offered.',
    );
    // What was chosen is kept.
    assert.equal(screen.getByRole<HTMLInputElement>('radio', { name: /Next payment/ }).checked, true);
    await waitFor(() =>
      assert.equal(api!.calls.filter((c) => `${c.method} ${c.path}` === PAYMENTS_CALL).length, 2),
    );
  });

  it('shows the way to add and verify a bank account when none is verified', async () => {
    api = await serve({ [ACCOUNTS_CALL]: { status: 200, body: { accounts: [WAITING] } } });
    renderPayScreen();
    const step = await screen.findByTestId('no-bank-account');
    within(step).getByText('To pay online, you need a verified business bank account.');
    within(step).getByText(/^Bank of America ••1111 is waiting for verification:/);
    assert.equal(
      within(step).getByRole('link', { name: 'Verify your bank account' }).getAttribute('href'),
      routes.bankAccounts.path,
    );
    expectNone(screen.queryByRole('button', { name: 'Review payment' }), 'a review without an account');
  });

  it('shows the review step in Spanish: its words, the amounts and the authorization in Spanish', async () => {
    api = await serve({ [PAY_CALL]: { status: 502, body: 'Bad gateway' } });
    i18n.loadAndActivate({ locale: 'es-US', messages: spanishCatalogue() });
    try {
      renderPayScreen();
      fireEvent.click(await screen.findByRole('radio', { name: /Monto vencido/ }));
      screen.getByText('Paso 1 de 2');
      await press('Revisar el pago');
      await expectFocus(screen.getByRole('heading', { level: 2, name: 'Revise y autorice' }));
      const review = within(screen.getByTestId('pay-review'));
      review.getByText('Paso 2 de 2');
      assert.equal(
        review.getByTestId('pay-summary').textContent,
        'Monto$2,312.75Fecha de pagolun, 4 de ago de 2036Pagar desdeJPMorgan Chase ••6789',
      );
      const text = review.getByTestId('authorization-text');
      assert.equal(text.getAttribute('lang'), 'es-US');
      assert.match(text.textContent, /^Usted confirma que puede actuar en nombre de Demo Supplies LLC/);
      review.getByRole('heading', { name: 'Autorización' });
      fireEvent.click(review.getByRole('checkbox', { name: 'Autorizo este débito' }));
      review.getByRole('button', { name: 'Cambiar los detalles' });
      await press('Pagar $2,312.75');
      await screen.findByText(
        'No pudimos confirmar su pago en este momento. Inténtelo de nuevo: no se pagará dos veces.',
      );
      const [sent] = payCalls(api);
      assert.equal(sent!.locale, 'es-US');
      assert.equal(sent!.authorizationSha256, sha256(text.textContent));
    } finally {
      i18n.loadAndActivate({ locale: 'en-US', messages: {} });
    }
  });
});

describe('the loan page’s payments and autopay', () => {
  let api: TestApi | undefined;
  beforeEach(() => localStorage.setItem(ACCESS_TOKEN_STORAGE_KEY, 'product-token'));
  afterEach(async () => {
    localStorage.clear();
    await api?.close();
    api = undefined;
  });

  const FUTURE = '2099-01-05T19:00:00.000Z';
  const PAST = '2020-01-05T19:00:00.000Z';
  const HISTORY = [
    payment('p-6', {
      status: 'scheduled',
      cancellableUntil: FUTURE,
      amountCents: 50_000,
      effectiveOn: '2036-08-06',
    }),
    payment('p-5', { status: 'scheduled', cancellableUntil: PAST, kind: 'autopay' }),
    payment('p-4', { status: 'pending', cancellableUntil: null }),
    payment('p-3', { status: 'settled', cancellableUntil: null, settledAt: '2036-07-03T10:00:00.000Z' }),
    payment('p-2', { status: 'returned', cancellableUntil: null, returnCode: 'R02' }),
    payment('p-1', { status: 'cancelled', cancellableUntil: null }),
  ];

  it('lists the payments newest first, each status in words, a returned one with the bank’s reason, and cancels a scheduled one', async () => {
    let history = HISTORY;
    const cancelled = { ...HISTORY[0]!, status: 'cancelled' as const, cancellableUntil: null };
    api = await serveApi({
      [PAYMENTS_CALL]: () => ({ status: 200, body: facts({ payments: history }) }),
      [ACCOUNTS_CALL]: { status: 200, body: { accounts: [ACCOUNT] } },
      [`POST ${paymentEndpoints.cancelPayment.href({ loanId: LOAN.id, paymentId: 'p-6' })}`]: () => {
        history = [cancelled, ...HISTORY.slice(1)];
        return { status: 200, body: cancelled };
      },
    });
    let changes = 0;
    renderInApp(<LoanPaymentSections loan={LOAN} onChange={() => changes++} />);
    const rows = await screen.findAllByTestId('payment');
    assert.deepEqual(
      rows.map((row) => [
        row.getAttribute('data-status'),
        within(row).getByTestId('payment-status').textContent,
      ]),
      [
        ['scheduled', 'Scheduled'],
        ['scheduled', 'Scheduled'],
        ['pending', 'Pending'],
        ['settled', 'Paid'],
        ['returned', 'Returned'],
        ['cancelled', 'Cancelled'],
      ],
    );
    assert.equal(within(rows[4]!).getByTestId('payment-return-reason').textContent, 'The account is closed.');
    assert.equal(within(rows[1]!).getByTestId('payment-kind').textContent, 'Autopay');
    expectNone(within(rows[0]!).queryByTestId('payment-kind'), 'a one-time payment marked as autopay');
    within(rows[0]!).getByText('Aug 6, 2036');
    within(rows[0]!).getByText('$500.00');
    within(rows[0]!).getByText(/^JPMorgan Chase ••6789/);
    within(rows[0]!).getByText(/^You can cancel until Jan 5, 2099, /);
    // Only a scheduled payment before its cut-off can be cancelled.
    assert.deepEqual(
      rows.map((row) => Boolean(within(row).queryByRole('button', { name: /^Cancel/ }))),
      [true, false, false, false, false, false],
    );

    fireEvent.click(
      within(rows[0]!).getByRole('button', { name: 'Cancel the payment of $500.00 on Aug 6, 2036' }),
    );
    const dialog = within(await screen.findByRole('alertdialog', { name: 'Cancel this payment?' }));
    dialog.getByText(
      '$500.00 from JPMorgan Chase ••6789 on Aug 6, 2036 won’t be debited. You can make another payment afterwards.',
    );
    await act(async () => void fireEvent.click(dialog.getByRole('button', { name: 'Cancel payment' })));
    await waitFor(() =>
      assert.equal(screen.getAllByTestId('payment')[0]!.getAttribute('data-status'), 'cancelled'),
    );
    expectNone(screen.queryByRole('alertdialog'), 'the dialog, once cancelled');
    assert.equal(changes, 1, 'the loan is asked for again');
    screen.getByText('Payment cancelled.');
  });

  it('says every return code in words', () => {
    for (const [code, reason] of Object.entries(RETURN_REASONS))
      assert.equal(returnReasonWords(code), reason.words);
    assert.equal(returnReasonWords('R99'), 'The bank returned the payment.');
  });

  it('turns autopay on with the account chosen and its standing authorization accepted', async () => {
    const on = {
      enabled: true,
      bankAccount: { id: ACCOUNT.id, bankName: ACCOUNT.bankName, last4: ACCOUNT.last4 },
      nextDebit: { on: '2036-09-01', amountCents: 125_000 },
      changeBy: '2036-08-29T18:00:00.000Z',
    };
    let autopay: LoanPayments['autopay'] = facts().autopay;
    api = await serveApi({
      [PAYMENTS_CALL]: () => ({ status: 200, body: facts({ autopay }) }),
      [ACCOUNTS_CALL]: { status: 200, body: { accounts: [ACCOUNT, WAITING] } },
      [`PUT ${paymentEndpoints.turnOnAutopay.href({ loanId: LOAN.id })}`]: () => {
        autopay = on;
        return { status: 200, body: on };
      },
    });
    let changes = 0;
    renderInApp(<LoanPaymentSections loan={LOAN} onChange={() => changes++} />);
    const section = within(await screen.findByTestId('autopay'));
    assert.equal(section.getByTestId('autopay-state').textContent, 'Off');
    await press('Turn on autopay');
    await expectFocus(section.getByRole('heading', { level: 3, name: 'Turn on autopay' }));
    const shown = section.getByTestId('authorization-text').textContent;
    assert.equal(
      shown,
      paymentAuthorizationText({
        locale: 'en-US',
        holderName: ACCOUNT.holderName,
        bankName: ACCOUNT.bankName,
        last4: ACCOUNT.last4,
        lenderName: LENDER.name,
        supportPhone: LENDER.supportPhone,
        terms: { kind: 'autopay', loanReference: LOAN.reference },
      }),
    );
    fireEvent.click(section.getByRole('checkbox', { name: 'I authorize these debits' }));
    await act(async () => void fireEvent.submit(screen.getByTestId('autopay-form')));
    await waitFor(() => assert.equal(section.getByTestId('autopay-state').textContent, 'On'));
    const put = api.calls.find((c) => c.method === 'PUT')!;
    assert.deepEqual(put.body, {
      locale: 'en-US',
      bankAccountId: ACCOUNT.id,
      authorizationSha256: sha256(shown),
      authorized: true,
    });
    assert.equal(section.getByTestId('autopay-next').textContent, 'Next debit: $1,250.00 on Sep 1, 2036');
    section.getByText(/^You can turn it off until Aug 29, 2036, .+ to stop this debit\.$/);
    section.getByRole('button', { name: 'Turn off autopay' });
    assert.equal(changes, 1);
  });
});
