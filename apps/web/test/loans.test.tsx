import { LENDER } from './support/dom.ts';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ACCESS_TOKEN_STORAGE_KEY, loanEndpoints, routes, type LoanSummary } from '@customer-core/contracts';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { LoanCard } from '../src/features/dashboard/loan-card.tsx';
import { LoansSection } from '../src/features/dashboard/loans-section.tsx';
import { OverdueNotice } from '../src/features/loan-details/overdue-notice.tsx';
import { LoanNotFound } from '../src/loans/loan-not-found.tsx';
import { serveApi, type TestApi } from './support/api.ts';
import { press } from './support/forms.ts';
import { expectNone, renderInApp, InPortalLanguage } from './support/render.tsx';

// The loans as the borrower reads them: each card's status in words, its money and next payment, the
// way to the documents still to sign, the list's empty and failed states, a
// past-due loan's notice, and a loan that is not the borrower's.

function loan(fields: Partial<LoanSummary> & Pick<LoanSummary, 'reference' | 'status'>): LoanSummary {
  return {
    id: `id-${fields.reference}`,
    product: 'Term loan',
    amountCents: 5_000_000,
    balanceCents: 3_212_345,
    nextPayment: null,
    overdue: null,
    checkout: { status: 'not_started', startedAt: null, completedAt: null, documents: 5, documentsDone: 0 },
    ...fields,
  };
}
const ACTIVE = loan({
  reference: 'LN-DEMO-1',
  status: 'ACTIVE',
  nextPayment: { dueOn: '2036-09-01', amountCents: 125_000 },
});
const PAST_DUE = loan({ reference: 'LN-DEMO-2', status: 'PAST DUE', product: 'Equipment loan' });
const PAID = loan({ reference: 'LN-DEMO-3', status: 'PAID', product: 'Line of credit', balanceCents: 0 });
const CLOSED = loan({ reference: 'LN-DEMO-4', status: 'CLOSED LOST', product: 'Bridge loan' });

const card = (reference: string) =>
  screen.getAllByTestId('loan-card').find((c) => c.getAttribute('data-reference') === reference)!;

describe('loan cards', () => {
  it('say each status in words, with its own colour, and the money as the borrower writes it', () => {
    render(
      <MemoryRouter>
        {[ACTIVE, PAST_DUE, PAID, CLOSED].map((each) => (
          <LoanCard key={each.id} loan={each} open={each.status === 'ACTIVE' || each.status === 'PAST DUE'} />
        ))}
      </MemoryRouter>,
      { wrapper: InPortalLanguage },
    );
    const words = {
      'LN-DEMO-1': 'Active',
      'LN-DEMO-2': 'Past due',
      'LN-DEMO-3': 'Paid off',
      'LN-DEMO-4': 'Closed',
    };
    const classes = new Set<string>();
    for (const [reference, word] of Object.entries(words)) {
      const badge = within(card(reference)).getByTestId('loan-status');
      assert.equal(badge.textContent, word);
      assert.equal(badge.getAttribute('data-status'), card(reference).getAttribute('data-status'));
      classes.add(badge.className);
    }
    assert.equal(classes.size, 4, 'each status has its own colour');

    const active = within(card('LN-DEMO-1'));
    active.getByRole('heading', { name: 'Term loan' });
    assert.equal(active.getByTestId('loan-amount').textContent, '$50,000.00');
    assert.equal(active.getByTestId('loan-balance').textContent, '$32,123.45');
    assert.equal(active.getByTestId('loan-next-payment').textContent, '$1,250.00due Sep 1, 2036');
    assert.equal(within(card('LN-DEMO-2')).getByTestId('loan-next-payment').textContent, 'None scheduled');
    expectNone(within(card('LN-DEMO-3')).queryByTestId('loan-next-payment'), 'a closed loan’s next payment');
    assert.equal(within(card('LN-DEMO-3')).getByTestId('loan-balance').textContent, '$0.00');
  });

  it('say how much is past due and how late, and a next payment whose day has passed as missed', () => {
    const behind = loan({
      reference: 'LN-LATE-1',
      status: 'PAST DUE',
      nextPayment: { dueOn: '2020-03-01', amountCents: 90_000 },
      overdue: { amountCents: 231_275, daysLate: 12, since: '2020-03-01', instalments: 1 },
    });
    const oneDay = loan({
      reference: 'LN-LATE-2',
      status: 'PAST DUE',
      overdue: { amountCents: 50_000, daysLate: 1, since: '2020-03-01', instalments: 1 },
    });
    render(
      <MemoryRouter>
        <LoanCard loan={behind} open />
        <LoanCard loan={oneDay} open />
        <LoanCard loan={ACTIVE} open />
      </MemoryRouter>,
      { wrapper: InPortalLanguage },
    );
    const late = within(card('LN-LATE-1'));
    assert.equal(late.getByTestId('loan-overdue').textContent, '$2,312.7512 days late');
    assert.equal(late.getByTestId('loan-next-payment').textContent, '$900.00was due Mar 1, 2020');
    assert.equal(within(card('LN-LATE-2')).getByTestId('loan-overdue').textContent, '$500.001 day late');
    expectNone(within(card('LN-DEMO-1')).queryByTestId('loan-overdue'), 'an up-to-date loan’s past due');
  });

  it('lead an active loan whose documents are not done to its checkout, and no other', () => {
    render(
      <MemoryRouter>
        <LoanCard loan={ACTIVE} open />
        <LoanCard loan={PAST_DUE} open />
      </MemoryRouter>,
      { wrapper: InPortalLanguage },
    );
    const links = screen.getAllByRole('link', { name: /Review and sign documents/ });
    assert.equal(links.length, 1);
    assert.equal(links[0]!.getAttribute('href'), routes.loanCheckout.href({ loanId: ACTIVE.id }));
    assert.equal(links[0]!.getAttribute('aria-label'), 'Review and sign documents for loan LN-DEMO-1');
    assert.equal(
      within(card('LN-DEMO-1')).getByTestId('loan-documents-to-sign').textContent,
      'Documents to sign. 0 of 5 documents done.Review and sign documents',
    );
  });
});

describe('the list of loans', () => {
  let api: TestApi | undefined;
  const list = `GET ${loanEndpoints.loans.path}`;
  beforeEach(() => localStorage.setItem(ACCESS_TOKEN_STORAGE_KEY, 'product-token'));
  afterEach(async () => {
    localStorage.clear();
    await api?.close();
  });

  it('puts open loans first and closed ones apart', async () => {
    api = await serveApi({ [list]: { status: 200, body: { loans: [PAID, ACTIVE, CLOSED, PAST_DUE] } } });
    renderInApp(<LoansSection />);
    const open = await screen.findByTestId('open-loans');
    assert.deepEqual(
      within(open)
        .getAllByTestId('loan-card')
        .map((c) => c.getAttribute('data-reference')),
      ['LN-DEMO-1', 'LN-DEMO-2'],
    );
    const closed = screen.getByTestId('closed-loans');
    within(closed).getByRole('heading', { name: 'Closed loans' });
    assert.deepEqual(
      within(closed)
        .getAllByTestId('loan-card')
        .map((c) => c.getAttribute('data-reference')),
      ['LN-DEMO-3', 'LN-DEMO-4'],
    );
  });

  it('sums the open loans up on the home: what is next on each and the way to all, no card', async () => {
    api = await serveApi({ [list]: { status: 200, body: { loans: [PAID, ACTIVE, CLOSED, PAST_DUE] } } });
    renderInApp(<LoansSection view="summary" />);
    const summaries = within(await screen.findByTestId('open-loan-summaries')).getAllByTestId('loan-summary');
    assert.deepEqual(
      summaries.map((s) => s.getAttribute('data-reference')),
      ['LN-DEMO-1', 'LN-DEMO-2'],
    );
    const [active, pastDue] = summaries as [HTMLElement, HTMLElement];
    assert.match(active.textContent ?? '', /Next payment \$1,250\.00 due Sep 1, 2036/);
    assert.equal(
      within(active)
        .getByRole('link', { name: 'Review and sign documents for loan LN-DEMO-1' })
        .getAttribute('href'),
      routes.loanCheckout.href({ loanId: ACTIVE.id }),
    );
    assert.match(pastDue.textContent ?? '', /No payment scheduled/);
    expectNone(screen.queryByTestId('loan-card'), 'loan cards');
    expectNone(screen.queryByTestId('closed-loans'), 'closed loans');
    assert.equal(
      screen.getByRole('link', { name: 'See all your loans' }).getAttribute('href'),
      routes.loans.path,
    );
  });

  it('says so when the loans cannot be loaded, without the status, and loads them on "Try again"', async () => {
    let calls = 0;
    api = await serveApi({
      [list]: () =>
        (calls += 1) === 1
          ? { status: 503, body: '<h1>503 Service Unavailable</h1>' }
          : { status: 200, body: { loans: [ACTIVE, PAST_DUE] } },
    });
    renderInApp(<LoansSection />);
    const problem = await screen.findByTestId('loans-error');
    assert.equal(problem.getAttribute('role'), 'alert');
    assert.equal(
      within(problem).getByText(/^We couldn’t load/).textContent,
      'We couldn\u2019t load your loans just now. Please try again in a few minutes.',
    );
    await press('Try again');
    assert.equal(within(await screen.findByTestId('open-loans')).getAllByTestId('loan-card').length, 2);
  });

  it('tells a borrower without loans so, with the way to apply', async () => {
    api = await serveApi({ [list]: { status: 200, body: { loans: [] } } });
    renderInApp(<LoansSection />);
    const empty = await screen.findByTestId('loans-empty');
    within(empty).getByText('You don\u2019t have any loans with us yet.');
    assert.equal(
      within(empty).getByRole('link', { name: 'Apply for a loan' }).getAttribute('href'),
      routes.startApplication.path,
    );
    expectNone(screen.queryByTestId('closed-loans'), 'closed loans');
  });
});

describe('a loan past due, and one not found', () => {
  it('says how much is past due, how late, since when, and whom to call', () => {
    render(
      <OverdueNotice overdue={{ amountCents: 250_000, daysLate: 17, since: '2026-06-01', instalments: 2 }} />,
      { wrapper: InPortalLanguage },
    );
    const notice = screen.getByTestId('overdue-notice');
    assert.equal(within(notice).getByRole('heading').textContent, '$2,500.00 is past due');
    assert.equal(within(notice).getByTestId('overdue-days').textContent, '17 days late');
    assert.equal(
      within(notice).getByTestId('overdue-summary').textContent,
      '2 payments missed since Jun 1, 2026: 17 days late.',
    );
    const phone = within(notice).getByRole('link', { name: LENDER.supportPhone });
    assert.match(phone.getAttribute('href') ?? '', /^tel:\+?\d{7,}$/);
  });

  it('shows nothing of a loan that is not the borrower’s, and the way back', () => {
    render(
      <MemoryRouter>
        <LoanNotFound />
      </MemoryRouter>,
      { wrapper: InPortalLanguage },
    );
    screen.getByRole('heading', { name: 'Loan not found' });
    assert.equal(
      screen.getByRole('link', { name: 'Back to your account' }).getAttribute('href'),
      routes.dashboard.path,
    );
  });
});
