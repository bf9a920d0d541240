import './support/dom.ts';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LoanDetail, LoanDocument, SignDocumentRequest } from '@customer-core/contracts';
import { fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { CheckoutView } from '../src/features/loan-checkout/checkout-view.tsx';
import type { ActionResult } from '../src/features/loan-checkout/use-loan-checkout.ts';
import { press } from './support/forms.ts';
import { expectFocus, expectNone, renderInApp } from './support/render.tsx';

// A loan's document checkout as the borrower goes through it (each answer as the API gives it: the
// loan as it is now), with the toasts each signature and the completed checkout leave.

function document(id: string, title: string, requiresSignature: boolean): LoanDocument {
  return {
    id,
    title,
    description: `${title}, in plain words.`,
    body: `${title}\nThe terms of the loan.`,
    requiresSignature,
    state: 'to_review',
    reviewedAt: null,
    signedAt: null,
    signatureName: null,
  };
}

/** The loan as the API keeps it, changed by each review and signature as the API does. */
function lender() {
  let loan: LoanDetail = {
    id: 'loan-1',
    reference: 'LN-DEMO-1',
    product: 'Term loan',
    status: 'ACTIVE',
    amountCents: 5_000_000,
    balanceCents: 5_000_000,
    nextPayment: null,
    checkout: {
      status: 'in_progress',
      startedAt: '2026-07-01T10:00:00Z',
      completedAt: null,
      documents: 2,
      documentsDone: 0,
    },
    documents: [
      document('agreement', 'Loan agreement', true),
      document('schedule', 'Payment schedule', false),
    ],
    instalments: [],
    overdue: null,
  };
  const update = (id: string, change: Partial<LoanDocument>): ActionResult => {
    const documents = loan.documents.map((d) => (d.id === id ? { ...d, ...change } : d));
    const done = documents.filter((d) => d.state === (d.requiresSignature ? 'signed' : 'reviewed')).length;
    loan = {
      ...loan,
      documents,
      checkout: {
        ...loan.checkout,
        documentsDone: done,
        completedAt: done === documents.length ? '2026-07-01T10:05:00Z' : null,
        status: done === documents.length ? 'completed' : 'in_progress',
      },
    };
    return { ok: true, loan };
  };
  return {
    get loan() {
      return loan;
    },
    review: async (id: string) => update(id, { state: 'reviewed', reviewedAt: '2026-07-01T10:01:00Z' }),
    sign: async (id: string, { signatureName }: SignDocumentRequest) =>
      update(id, { state: 'signed', signedAt: '2026-07-01T10:02:00Z', signatureName }),
  };
}

/** The checkout screen's part that holds the loan: each answer's loan is the one shown next. */
function Checkout() {
  const [api] = useState(lender);
  const [loan, setLoan] = useState(api.loan);
  const shown = (result: ActionResult) => {
    if (result.ok) setLoan(result.loan);
    return result;
  };
  return (
    <CheckoutView
      loan={loan}
      refused={null}
      review={async (id) => shown(await api.review(id))}
      sign={async (id, signature) => shown(await api.sign(id, signature))}
    />
  );
}

const item = (title: string) =>
  screen.getAllByTestId('checkout-document').find((d) => within(d).queryByRole('heading', { name: title }))!;
const toast = (title: string) =>
  screen.findAllByTestId('toast').then((all) => all.find((t) => t.textContent?.startsWith(title))!);

describe('loan checkout', () => {
  it('reviews and signs each document: their states, the progress in words and as a bar, a toast per signature, then completed', async () => {
    renderInApp(<Checkout />);
    screen.getByRole('heading', { level: 1, name: 'Review and sign your documents' });
    assert.equal(
      screen.getAllByText(/then mark it as reviewed/).length,
      1,
      'the instruction is said once, not under every document',
    );
    const progress = screen.getByRole('progressbar');
    assert.equal(
      screen.getByTestId('checkout-progress').querySelector('p')?.textContent,
      '0 of 2 documents done',
    );
    assert.equal(progress.getAttribute('aria-valuenow'), '0');
    assert.equal(progress.getAttribute('aria-valuemax'), '2');
    assert.equal(progress.getAttribute('aria-valuetext'), '0 of 2 documents done');

    const agreement = within(item('Loan agreement'));
    assert.equal(agreement.getByTestId('document-state').textContent, 'To review');
    agreement.getByText('Needs your signature once you have reviewed it.');
    const toggle = agreement.getByRole('button', { name: 'Read document: Loan agreement' });
    assert.equal(toggle.getAttribute('aria-expanded'), 'false');
    fireEvent.click(toggle);
    assert.equal(toggle.getAttribute('aria-expanded'), 'true');
    assert.equal(toggle.getAttribute('aria-label'), 'Hide document: Loan agreement');
    agreement.getByText('The terms of the loan.', { exact: false });

    await press('Mark as reviewed: Loan agreement');
    assert.equal(within(item('Loan agreement')).getByTestId('document-state').textContent, 'Reviewed');
    // Straight to the signature.
    await expectFocus(screen.getByLabelText('Your full name'));
    fireEvent.change(screen.getByLabelText('Your full name'), { target: { value: 'Dana Demo' } });
    fireEvent.click(
      screen.getByRole('checkbox', { name: 'I have read and agree to \u201cLoan agreement\u201d' }),
    );
    await press('Sign document: Loan agreement');
    const signed = await toast('Document signed');
    assert.equal(signed.textContent, 'Document signedYou signed \u201cLoan agreement\u201d.');
    assert.equal(signed.getAttribute('data-status'), 'success');
    within(signed).getByRole('button', { name: 'Dismiss notification' });
    assert.equal(within(item('Loan agreement')).getByTestId('document-state').textContent, 'Signed');
    assert.match(
      within(item('Loan agreement')).getByTestId('document-signature').textContent ?? '',
      /^Signed by Dana Demo on /,
    );
    assert.equal(
      screen.getByTestId('checkout-progress').querySelector('p')?.textContent,
      '1 of 2 documents done',
    );
    assert.equal(screen.getByRole('progressbar').getAttribute('aria-valuenow'), '1');

    fireEvent.click(
      within(item('Payment schedule')).getByRole('button', { name: 'Read document: Payment schedule' }),
    );
    await press('Mark as reviewed: Payment schedule');
    const complete = await toast('Checkout complete');
    assert.equal(
      complete.textContent,
      'Checkout completeEvery document of your loan is reviewed and signed.',
    );
    const done = screen.getByTestId('checkout-complete');
    const heading = within(done).getByRole('heading', { name: 'You\u2019re all set' });
    await expectFocus(heading);
    expectNone(screen.queryByRole('progressbar'), 'the progress bar, once complete');
    expectNone(screen.queryByRole('button', { name: /Mark as reviewed|Sign document/ }), 'an action left');
  });
});
