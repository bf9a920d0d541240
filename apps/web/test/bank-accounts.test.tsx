import { LENDER } from './support/dom.ts';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import {
  ACCESS_TOKEN_STORAGE_KEY,
  ACCOUNT_NUMBER_MESSAGE,
  AddBankAccountRequestSchema,
  OTHER_RETURN_REASON,
  RETURN_REASONS,
  ROUTING_NUMBER_INVALID_MESSAGE,
  ROUTING_NUMBER_LENGTH_MESSAGE,
  VerifyBankAccountRequestSchema,
  paymentEndpoints,
  type BankAccount,
} from '@customer-core/contracts';
import { formatter } from '@lingui/format-po';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { BankAccountsScreen } from '../src/features/bank-accounts/bank-accounts-screen.tsx';
import { SHARED_MESSAGES } from '../src/i18n/shared-messages.ts';
import { microAmountCents } from '../src/features/bank-accounts/micro-amount.ts';
import { serveApi, type Answers, type TestApi } from './support/api.ts';
import { press, type } from './support/forms.ts';
import { i18n } from './support/i18n.ts';
import { expectFocus, expectNone, renderInApp } from './support/render.tsx';

// The bank accounts page: each account's state in words and what to do; adding one (the contract's
// checks, the step-up, the new row focused); verifying one with the two amounts; removing one (asked
// first; refused while a payment uses it); and the page in Spanish.

const LIST = `GET ${paymentEndpoints.bankAccounts.path}`;
const ADD = `POST ${paymentEndpoints.addBankAccount.path}`;
const verifyPath = (id: string) =>
  `POST ${paymentEndpoints.verifyBankAccount.path.replace(':accountId', id)}`;
const removePath = (id: string) =>
  `POST ${paymentEndpoints.removeBankAccount.path.replace(':accountId', id)}`;

const account = (id: string, fields: Partial<BankAccount>): BankAccount => ({
  id,
  holderName: 'Ruiz Bakery LLC',
  bankName: 'First Example Bank',
  routingNumber: '021000021',
  last4: '6789',
  type: 'checking',
  status: 'verified',
  microDepositsSent: true,
  triesLeft: 3,
  returnCode: null,
  createdAt: '2026-07-01T09:00:00Z',
  ...fields,
});

const ACCOUNTS = [
  account('a-coming', { status: 'pending_verification', microDepositsSent: false, last4: '1111' }),
  account('a-sent', { status: 'pending_verification', last4: '2222', type: 'savings', triesLeft: 2 }),
  account('a-verified', { last4: '3333', bankName: null }),
  account('a-failed', { status: 'failed', last4: '4444', triesLeft: 0 }),
  account('a-disabled', { status: 'disabled', last4: '5555', returnCode: 'R02' }),
];

/** The row of the account whose number ends so. */
const row = (last4: string) =>
  screen.getAllByTestId('bank-account-row').find((li) => li.textContent?.includes(`••${last4}`))!;
const textOf = (element: HTMLElement) => element.textContent?.replace(/\s+/g, ' ').trim();

let api: TestApi | undefined;
beforeEach(() => localStorage.setItem(ACCESS_TOKEN_STORAGE_KEY, 'product-token'));
afterEach(async () => {
  localStorage.clear();
  await api?.close();
  api = undefined;
});

async function showPage(answers: Answers, title = 'Bank accounts') {
  api = await serveApi(answers);
  renderInApp(<BankAccountsScreen />, { path: '/ui/dashboard/bank-accounts' });
  await screen.findByRole('heading', { level: 1, name: title });
  await waitFor(() => expectNone(screen.queryByTestId('loading'), 'the list loading'));
}

describe('the bank accounts’ states', () => {
  it('says each account’s state in words, with what to do', async () => {
    await showPage({ [LIST]: { status: 200, body: { accounts: ACCOUNTS } } });
    const status = (last4: string) => textOf(within(row(last4)).getByTestId('bank-account-status'));

    // On their way: when they will come, and no form yet.
    assert.equal(status('1111'), 'Waiting for verification');
    within(row('1111')).getByText(/^Two small deposits will reach this account in 1–3 business days\./);
    expectNone(within(row('1111')).queryByTestId('bank-account-verify'), 'a form before the deposits');

    // Sent: the two amounts' form, with the tries left.
    assert.equal(status('2222'), 'Waiting for verification');
    within(row('2222')).getByRole('form', { name: 'Enter the two deposit amounts' });
    assert.equal(textOf(within(row('2222')).getByTestId('bank-account-tries')), 'You have 2 tries left.');
    assert.match(textOf(row('2222')), /Savings/);

    // Verified, named by its routing number where the directory has no bank.
    assert.equal(status('3333'), 'Verified');
    within(row('3333')).getByRole('heading', { name: 'Routing 021000021 ending in 3333' });
    within(row('3333')).getByText('You can pay your loans from this account.');

    // Failed: call us, the number a link.
    assert.equal(status('4444'), 'Not verified');
    assert.match(
      textOf(row('4444')),
      /We couldn’t verify this account\. Call us at \(800\) 555-0142 and we’ll help\./,
    );
    assert.equal(
      within(row('4444')).getByRole('link', { name: LENDER.supportPhone }).getAttribute('href'),
      'tel:8005550142',
    );

    // Disabled: the return code in plain words, and add another.
    assert.equal(status('5555'), 'Disabled');
    assert.match(
      textOf(row('5555')),
      /The account is closed\. We can’t take payments from this account now\. Add another account to pay from\./,
    );

    // Every row can be removed; the name describes its button.
    for (const li of screen.getAllByTestId('bank-account-row'))
      within(li).getByRole('button', { name: 'Remove', description: /ending in \d{4}/ });
  });

  it('says there are none yet', async () => {
    await showPage({ [LIST]: { status: 200, body: { accounts: [] } } });
    screen.getByText('You haven’t added a bank account yet.');
    screen.getByRole('button', { name: 'Add account' });
  });

  it('says the list could not load, with Try again', async () => {
    await showPage({ [LIST]: { status: 500, body: { error: 'internal_error', message: 'x' } } });
    screen.getByText(/^We couldn’t load your bank accounts just now\./);
    screen.getByRole('button', { name: 'Try again' });
  });
});

describe('adding a bank account', () => {
  const openForm = async () => {
    await press('Add account');
    await expectFocus(screen.getByLabelText('Name on the account'));
  };

  it('checks the routing number as it is left, and the account numbers against each other, before sending', async () => {
    await showPage({ [LIST]: { status: 200, body: { accounts: [] } } });
    await openForm();
    const routing = screen.getByLabelText('Routing number');
    type(routing, '123456789');
    await act(async () => void fireEvent.blur(routing));
    await screen.findByText(ROUTING_NUMBER_INVALID_MESSAGE);
    assert.equal(routing.getAttribute('aria-invalid'), 'true');
    assert.match(routing.getAttribute('aria-describedby') ?? '', /bank-account-routing-error/);

    type(routing, '021000021');
    await waitFor(() => expectNone(screen.queryByText(ROUTING_NUMBER_INVALID_MESSAGE), 'the message'));
    type(screen.getByLabelText('Name on the account'), 'Ruiz Bakery LLC');
    type(screen.getByLabelText('Account number'), '000123456789');
    type(screen.getByLabelText('Account number again'), '000123456780');
    await press('Add bank account');
    await screen.findByText('The account numbers don’t match.');
    await expectFocus(screen.getByLabelText('Account number again'));
    assert.deepEqual(
      api!.calls.filter((call) => call.method === 'POST'),
      [],
      'nothing sent',
    );
  });

  it('asks a sign-in too old for it to confirm it’s you, in a dialog that keeps what was typed', async () => {
    let asked = 0;
    const added = account('a-new', {
      status: 'pending_verification',
      microDepositsSent: false,
      last4: '6789',
      bankName: 'JPMorgan Chase Bank',
    });
    await showPage({
      [LIST]: { status: 200, body: { accounts: [] } },
      [ADD]: () =>
        asked++ === 0
          ? {
              status: 403,
              body: { error: 'step_up_required', message: 'To add a bank account, confirm it’s you.' },
            }
          : { status: 201, body: added },
    });
    await openForm();
    type(screen.getByLabelText('Name on the account'), 'Ruiz Bakery LLC');
    type(screen.getByLabelText('Routing number'), '021000021');
    type(screen.getByLabelText('Account number'), '000123456789');
    type(screen.getByLabelText('Account number again'), '000123456789');
    await act(async () => void fireEvent.click(screen.getByLabelText('Savings')));
    await press('Add bank account');
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    within(dialog).getByText('To add a bank account, confirm it’s you.');
    assert.deepEqual(api!.calls.find((call) => call.method === 'POST')?.body, {
      holderName: 'Ruiz Bakery LLC',
      routingNumber: '021000021',
      accountNumber: '000123456789',
      accountNumberAgain: '000123456789',
      type: 'savings',
    });
    // Cancelled: the form keeps what was typed.
    await act(async () => void fireEvent.keyDown(document.activeElement!, { key: 'Escape' }));
    await waitFor(() => expectNone(screen.queryByRole('dialog'), 'the dialog'));
    assert.equal(screen.getByLabelText<HTMLInputElement>('Account number').value, '000123456789');

    await expectFocus(screen.getByRole('button', { name: 'Add bank account' }));

    // Sent again (as the dialog does once the borrower has confirmed): added.
    await press('Add bank account');
    await waitFor(() => assert.equal(asked, 2));
    await waitFor(() => row('6789'));
    expectNone(screen.queryByRole('dialog'), 'the dialog');
  });

  it('focuses the new account’s row, which says the deposits will come, and closes the form', async () => {
    const added = account('a-new', {
      status: 'pending_verification',
      microDepositsSent: false,
      last4: '6789',
      bankName: 'JPMorgan Chase Bank',
    });
    await showPage({ [LIST]: { status: 200, body: { accounts: [] } }, [ADD]: { status: 201, body: added } });
    await openForm();
    type(screen.getByLabelText('Name on the account'), 'Ruiz Bakery LLC');
    type(screen.getByLabelText('Routing number'), '021000021');
    type(screen.getByLabelText('Account number'), '000123456789');
    type(screen.getByLabelText('Account number again'), '000123456789');
    screen.getByText(/we show only the last four digits of the account number/);
    await press('Add bank account');
    const newRow = await waitFor(() => row('6789'));
    await expectFocus(newRow);
    assert.equal(textOf(within(newRow).getByTestId('bank-account-notice')), 'Your bank account is added.');
    // Its state says the deposits are on their way.
    within(newRow).getByText(/^Two small deposits will reach this account in 1–3 business days\./);
    expectNone(screen.queryByLabelText('Routing number'), 'the form');
  });
});

describe('verifying a bank account', () => {
  it('sends the two amounts in cents, typed in cents or dollars; then says it is verified, the row focused', async () => {
    const sent = ACCOUNTS[1]!;
    await showPage({
      [LIST]: { status: 200, body: { accounts: [sent] } },
      [verifyPath(sent.id)]: { status: 200, body: { ...sent, status: 'verified' } },
    });
    const form = within(row('2222'));
    type(form.getByLabelText('First amount'), '17');
    type(form.getByLabelText('Second amount'), '$0.05');
    await press('Verify account');
    await waitFor(() =>
      assert.equal(textOf(within(row('2222')).getByTestId('bank-account-status')), 'Verified'),
    );
    assert.deepEqual(api!.calls.at(-1), {
      method: 'POST',
      path: paymentEndpoints.verifyBankAccount.path.replace(':accountId', sent.id),
      body: { firstAmountCents: 17, secondAmountCents: 5 },
    });
    await expectFocus(row('2222'));
    within(row('2222')).getByText('This account is verified. You can pay your loans from it now.');
    expectNone(within(row('2222')).queryByTestId('bank-account-verify'), 'the form');
  });

  it('refuses an amount that is not 1 to 99 cents before sending, and says the tries left after wrong ones', async () => {
    const sent = ACCOUNTS[1]!;
    let lists = 0;
    await showPage({
      [LIST]: () => ({
        status: 200,
        body: { accounts: [lists++ === 0 ? sent : { ...sent, triesLeft: 1 }] },
      }),
      [verifyPath(sent.id)]: {
        status: 409,
        body: { error: 'wrong_amounts', message: 'Those aren’t the amounts we sent. Tries left: 1.' },
      },
    });
    const form = within(row('2222'));
    type(form.getByLabelText('First amount'), '$1.50');
    type(form.getByLabelText('Second amount'), '8');
    await press('Verify account');
    await screen.findByText('Enter an amount in cents, 1 to 99.');
    await expectFocus(form.getByLabelText('First amount'));
    assert.equal(api!.calls.filter((call) => call.method === 'POST').length, 0);

    type(form.getByLabelText('First amount'), '0.12');
    await press('Verify account');
    await screen.findByText('Those aren’t the amounts we sent. You have 1 try left.');
    await expectFocus(form.getByLabelText('First amount'));
    await waitFor(() =>
      assert.equal(textOf(within(row('2222')).getByTestId('bank-account-tries')), 'You have 1 try left.'),
    );
    assert.deepEqual(api!.calls.at(-2)?.body, { firstAmountCents: 12, secondAmountCents: 8 });
  });

  it('reads amounts as cents or dollars, under a dollar only', () => {
    assert.equal(microAmountCents('17'), 17);
    assert.equal(microAmountCents(' 7 '), 7);
    assert.equal(microAmountCents('17¢'), 17);
    assert.equal(microAmountCents('$0.17'), 17);
    assert.equal(microAmountCents('.5'), 50);
    assert.equal(microAmountCents('0,09'), 9);
    assert.ok(Number.isNaN(microAmountCents('$1.50')));
    assert.ok(Number.isNaN(microAmountCents('seventeen')));
  });
});

describe('removing a bank account', () => {
  it('asks first, and says a payment that uses it keeps it, the focus on that message', async () => {
    const verified = ACCOUNTS[2]!;
    await showPage({
      [LIST]: { status: 200, body: { accounts: [verified] } },
      [removePath(verified.id)]: {
        status: 409,
        body: { error: 'bank_account_in_use', message: 'A payment on its way or autopay uses this account.' },
      },
    });
    const remove = within(row('3333')).getByRole('button', { name: 'Remove' });
    await act(async () => void fireEvent.click(remove));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove this bank account?' });
    within(dialog).getByText(/You won’t be able to pay from Routing 021000021 ending in 3333 any more\./);
    // Cancel first: nothing sent, the focus back on Remove.
    await act(async () => void fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' })));
    await expectFocus(remove);
    assert.equal(api!.calls.filter((call) => call.method === 'POST').length, 0);

    await act(async () => void fireEvent.click(remove));
    await press('Remove bank account');
    const notice = within(row('3333')).getByTestId('bank-account-notice');
    await waitFor(() =>
      assert.equal(
        textOf(notice),
        'A payment on its way or autopay uses this account. Remove it once they no longer do.',
      ),
    );
    await expectFocus(notice);
    expectNone(screen.queryByRole('alertdialog'), 'the dialog');
  });

  it('says it is removed, the focus on that message, the row gone', async () => {
    const [coming, sent] = ACCOUNTS as [BankAccount, BankAccount];
    await showPage({
      [LIST]: { status: 200, body: { accounts: [coming, sent] } },
      [removePath(sent.id)]: { status: 200, body: { accounts: [coming] } },
    });
    await act(async () => void fireEvent.click(within(row('2222')).getByRole('button', { name: 'Remove' })));
    await press('Remove bank account');
    const notice = screen.getByTestId('bank-accounts-notice');
    await waitFor(() => assert.equal(textOf(notice), 'First Example Bank ending in 2222 is removed.'));
    await expectFocus(notice);
    assert.equal(screen.getAllByTestId('bank-account-row').length, 1);
  });
});

describe('the page in Spanish', () => {
  const po = readFileSync(path.resolve(import.meta.dirname, '../src/locales/es-US/portal.po'), 'utf8');

  it('says an account’s state, and why it was disabled, in Spanish', async () => {
    const catalogue = await formatter().parse(po, {
      locale: 'es-US',
      sourceLocale: 'en-US',
      filename: 'portal.po',
    });
    const messages = Object.fromEntries(
      Object.entries(catalogue).map(([id, entry]) => [id, entry.translation ?? '']),
    );
    i18n.loadAndActivate({ locale: 'es-US', messages });
    try {
      await showPage(
        { [LIST]: { status: 200, body: { accounts: [ACCOUNTS[3], ACCOUNTS[4]] } } },
        'Cuentas bancarias',
      );
      assert.equal(textOf(within(row('4444')).getByTestId('bank-account-status')), 'No verificada');
      assert.match(
        textOf(row('4444')),
        /No pudimos verificar esta cuenta\. Llámenos al \(800\) 555-0142 y le ayudaremos\./,
      );
      assert.equal(textOf(within(row('5555')).getByTestId('bank-account-status')), 'Deshabilitada');
      assert.match(
        textOf(row('5555')),
        /La cuenta está cerrada\. Por ahora no podemos cobrar pagos de esta cuenta\./,
      );
      assert.match(textOf(row('5555')), /Cuenta de cheques/);
    } finally {
      i18n.loadAndActivate({ locale: 'en-US', messages: {} });
    }
  });

  it('catalogues the contracts’ words it shows, exactly as they write them', () => {
    const refusals = [
      AddBankAccountRequestSchema.safeParse({
        holderName: '',
        routingNumber: '12',
        accountNumber: 'x',
        accountNumberAgain: '',
        type: 'cheque',
      }),
      AddBankAccountRequestSchema.safeParse({
        holderName: 'x'.repeat(23),
        routingNumber: '123456789',
        accountNumber: '1234',
        accountNumberAgain: '1235',
        type: 'checking',
      }),
      AddBankAccountRequestSchema.safeParse({
        holderName: 'x',
        routingNumber: '021000021',
        accountNumber: '1234',
        accountNumberAgain: '1235',
        type: 'checking',
      }),
      VerifyBankAccountRequestSchema.safeParse({ firstAmountCents: 100, secondAmountCents: 0 }),
    ];
    const written = new Set([
      ...refusals.flatMap((result) => result.error?.issues.map((issue) => issue.message) ?? []),
      ROUTING_NUMBER_LENGTH_MESSAGE,
      ROUTING_NUMBER_INVALID_MESSAGE,
      ACCOUNT_NUMBER_MESSAGE,
      ...Object.values(RETURN_REASONS).map((reason) => reason.words),
      OTHER_RETURN_REASON.words,
    ]);
    const catalogued = new Set(SHARED_MESSAGES.map((descriptor) => descriptor.id));
    assert.deepEqual(
      [...written].filter((english) => !catalogued.has(english)),
      [],
    );
  });
});
