import './support/dom.ts';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import {
  ESIGN_CONSENT,
  PROFILE_STORAGE_KEY,
  type EsignConsent,
  type LoanDetail,
  type LoanDocument,
  type SignDocumentsRequest,
} from '@customer-core/contracts';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { CheckoutView } from '../src/features/loan-checkout/checkout-view.tsx';
import type { ActionResult, ConsentResult } from '../src/features/loan-checkout/use-loan-checkout.ts';
import { useToasts } from '../src/lib/toasts/toasts-context.ts';
import { press } from './support/forms.ts';
import { expectFocus, expectNone, renderInApp } from './support/render.tsx';

// A loan's document checkout as the borrower goes through it (each answer as the API gives it: the
// loan as it is now): documents read to their end, one signature for all with the consent to sign
// electronically, and what confirms the signature and the completed checkout: said on the page, once,
// never in a toast.

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
  let consent: EsignConsent = { ...ESIGN_CONSENT, givenAt: null };
  const update = (ids: string[], change: Partial<LoanDocument>): ActionResult => {
    const documents = loan.documents.map((d) => (ids.includes(d.id) ? { ...d, ...change } : d));
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
  const signatures: SignDocumentsRequest[] = [];
  return {
    get loan() {
      return loan;
    },
    get consent() {
      return consent;
    },
    signatures,
    review: async (id: string) => update([id], { state: 'reviewed', reviewedAt: '2026-07-01T10:01:00Z' }),
    giveConsent: async (): Promise<ConsentResult> => {
      consent = { ...consent, givenAt: '2026-07-01T10:01:30Z' };
      return { ok: true, consent };
    },
    signAll: async (signature: SignDocumentsRequest) => {
      signatures.push(signature);
      return update(signature.documentIds, {
        state: 'signed',
        signedAt: '2026-07-01T10:02:00Z',
        signatureName: signature.signatureName,
      });
    },
  };
}

/** The checkout screen's part that holds the loan: each answer's loan is the one shown next. */
function Checkout({ api }: { api: ReturnType<typeof lender> }) {
  const [loan, setLoan] = useState(api.loan);
  const [consent, setConsent] = useState(api.consent);
  const shown = (result: ActionResult) => {
    if (result.ok) setLoan(result.loan);
    return result;
  };
  return (
    <>
      <ToastCount />
      <CheckoutView
        loan={loan}
        refused={null}
        consent={consent}
        review={async (id) => shown(await api.review(id))}
        signAll={async (signature) => shown(await api.signAll(signature))}
        giveConsent={async () => {
          const given = await api.giveConsent();
          if (given.ok) setConsent(given.consent);
          return given;
        }}
      />
    </>
  );
}

const item = (title: string) =>
  screen.getAllByTestId('checkout-document').find((d) => within(d).queryByRole('heading', { name: title }))!;
/** How many toasts the app holds (its model, not their lazily drawn elements). */
function ToastCount() {
  return <output data-testid="toast-count">{useToasts().toasts.size}</output>;
}

/** No toast: what is done is confirmed on the page. */
const expectNoToast = () => assert.equal(screen.getByTestId('toast-count').textContent, '0', 'no toast');

/**
 * The page has no layout here, so nothing is ever in view: this browser's IntersectionObserver says
 * what the borrower's would once they have scrolled a document's end into view.
 */
function scrolledToTheEnd() {
  const observed: Array<() => void> = [];
  class ReadToTheEnd {
    constructor(private readonly callback: IntersectionObserverCallback) {}
    observe(target: Element) {
      observed.push(() =>
        act(() =>
          this.callback([{ isIntersecting: true, target } as IntersectionObserverEntry], this as never),
        ),
      );
    }
    disconnect() {}
  }
  const original = globalThis.IntersectionObserver;
  globalThis.IntersectionObserver = ReadToTheEnd as never;
  return {
    /** The borrower scrolls the open document's end into view. */
    scroll: () => observed.splice(0).forEach((seen) => seen()),
    restore: () => void (globalThis.IntersectionObserver = original),
  };
}

describe('loan checkout', () => {
  let reader: ReturnType<typeof scrolledToTheEnd>;
  beforeEach(() => {
    reader = scrolledToTheEnd();
    localStorage.setItem(
      PROFILE_STORAGE_KEY,
      JSON.stringify({ login: 'demo@example.com', firstName: 'Dana', lastName: 'Demo' }),
    );
  });
  afterEach(() => {
    reader.restore();
    localStorage.clear();
  });

  it('reviews each document read to its end, then signs them all at once with one signature: states, progress, completed once, inline', async () => {
    const api = lender();
    renderInApp(<Checkout api={api} />);
    screen.getByRole('heading', { level: 1, name: 'Review and sign your documents' });
    assert.equal(
      screen.getByTestId('checkout-instruction').textContent,
      'Read each document to the end: it\u2019s marked as reviewed when you get there. Then you sign them all at once.',
    );
    const progress = screen.getByRole('progressbar');
    assert.equal(progress.getAttribute('aria-valuetext'), '0 of 2 documents done');
    assert.equal(within(item('Loan agreement')).getByTestId('document-state').textContent, 'To review');
    within(item('Loan agreement')).getByText('Needs your signature.');
    screen.getByText('Read every document to the end first: 2 documents are left to read.');

    // Opened, it is not reviewed: only once its end is in view.
    fireEvent.click(screen.getByRole('button', { name: 'Read document: Loan agreement' }));
    const reading = screen.getByTestId('checkout-reading');
    await expectFocus(within(reading).getByRole('heading', { level: 2, name: 'Loan agreement' }));
    within(reading).getByText('Document 1 of 2');
    assert.equal(api.loan.documents[0]!.state, 'to_review');
    reader.scroll();
    await within(reading).findByText('You\u2019ve read this document to the end: it\u2019s reviewed.');
    assert.equal(api.loan.documents[0]!.state, 'reviewed');
    fireEvent.click(within(reading).getByRole('button', { name: 'Next document: Payment schedule' }));
    await expectFocus(screen.getByRole('heading', { level: 2, name: 'Payment schedule' }));
    reader.scroll();
    await screen.findByText('You\u2019ve read this document to the end: it\u2019s reviewed.');
    fireEvent.click(screen.getAllByRole('button', { name: 'Back to your documents' })[0]!);

    // Every document read: the signature, once, with what it signs.
    const form = within(screen.getByTestId('sign-all-form'));
    // The form from its top: the consent comes first.
    await expectFocus(form.getByRole('heading', { level: 2, name: 'Sign your documents' }));
    assert.equal(screen.getByRole('progressbar').getAttribute('aria-valuetext'), '1 of 2 documents done');
    form.getByRole('heading', { name: 'You\u2019re signing 1 document' });
    assert.deepEqual(
      form.getAllByRole('listitem').map((li) => li.textContent),
      ['Loan agreement'],
    );
    form.getByText(ESIGN_CONSENT.text.split('\n\n')[0]!);

    await press('Sign all');
    await form.findByText('Type your full name to sign.');
    form.getByText('Confirm that you agree to sign electronically.');
    form.getByText('Confirm that you have read and agree to the documents.');
    fireEvent.change(form.getByLabelText('Your full name'), { target: { value: 'x' } });
    fireEvent.click(form.getByRole('checkbox', { name: 'I agree to sign electronically' }));
    fireEvent.click(form.getByRole('checkbox', { name: 'I have read and agree to these documents' }));
    await press('Sign all');
    await form.findByText(
      'This isn\u2019t the name on your account. Type your name as it is on your account: Dana Demo.',
    );
    assert.equal(api.consent.givenAt, null, 'nothing sent');
    assert.deepEqual(api.signatures, []);

    // Leniently: case, spaces, a middle initial.
    fireEvent.change(form.getByLabelText('Your full name'), { target: { value: ' dana  J. demo ' } });
    await press('Sign all');
    const done = await screen.findByTestId('checkout-complete');
    await expectFocus(within(done).getByRole('heading', { name: 'You\u2019re all set' }));
    assert.ok(api.consent.givenAt, 'the consent, given first');
    assert.deepEqual(api.signatures, [
      { signatureName: 'dana  J. demo', documentIds: ['agreement'], agreed: true },
    ]);
    // Completed by the signature: "You're all set" alone says so (no signature line, no toast).
    expectNone(screen.queryByTestId('checkout-signed'), 'the signature’s line once complete');
    expectNoToast();
    within(done).getByText(/^You agreed to sign electronically on /);
    within(done).getByRole('button', { name: 'Download a copy: Consent to sign electronically' });
    assert.match(
      within(item('Loan agreement')).getByTestId('document-signature').textContent ?? '',
      /^Signed by dana {2}J\. demo on /,
    );
    expectNone(screen.queryByRole('progressbar'), 'the progress bar, once complete');
    expectNone(screen.queryByRole('button', { name: /Sign all/ }), 'an action left');
  });
  it('confirms a signature in the form’s place while a document is left to read, then completes once, inline', async () => {
    const api = lender();
    renderInApp(<Checkout api={api} />);
    // Only the agreement read: the signature comes before the payment schedule is read.
    fireEvent.click(screen.getByRole('button', { name: 'Read document: Loan agreement' }));
    reader.scroll();
    await screen.findByText('You\u2019ve read this document to the end: it\u2019s reviewed.');
    fireEvent.click(screen.getAllByRole('button', { name: 'Back to your documents' })[0]!);
    const form = within(await screen.findByTestId('sign-all-form'));
    fireEvent.click(form.getByRole('checkbox', { name: 'I agree to sign electronically' }));
    fireEvent.change(form.getByLabelText('Your full name'), { target: { value: 'Dana Demo' } });
    fireEvent.click(form.getByRole('checkbox', { name: 'I have read and agree to these documents' }));
    await press('Sign all');

    // Where the form was, with the focus: what was signed, what is left.
    const signed = await screen.findByTestId('checkout-signed');
    await expectFocus(signed);
    assert.equal(
      signed.textContent,
      'Document signed. You signed 1 document. Read the document left to finish.',
    );
    assert.match(within(item('Loan agreement')).getByTestId('document-state').textContent ?? '', /^Signed/);
    expectNone(screen.queryByTestId('checkout-complete'), 'a completed checkout');
    expectNoToast();

    // The last document read: the checkout completes, said once, inline.
    fireEvent.click(screen.getByRole('button', { name: 'Read document: Payment schedule' }));
    reader.scroll();
    await screen.findByText('You\u2019ve read this document to the end: it\u2019s reviewed.');
    screen.getByText('Payment schedule: reviewed. Every document of this loan is reviewed and signed.');
    fireEvent.click(screen.getAllByRole('button', { name: 'Back to your documents' })[0]!);
    const done = await screen.findByTestId('checkout-complete');
    within(done).getByRole('heading', { name: 'You\u2019re all set' });
    expectNone(screen.queryByTestId('checkout-signed'), 'the signature’s line once complete');
    expectNoToast();
  });
});
