import './support/i18n.ts';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkoutProgress, describeProgress, isDocumentDone } from '../src/loans/checkout-progress.ts';
import { formatCalendarDate, formatMoney } from '../src/loans/loan-format.ts';
import { isOpenLoan } from '../src/loans/loan-status.ts';

describe('loan figures as the borrower reads them', () => {
  it('shows cents as US dollars', () => {
    assert.equal(formatMoney(0), '$0.00');
    assert.equal(formatMoney(5), '$0.05');
    assert.equal(formatMoney(123456), '$1,234.56');
    assert.equal(formatMoney(25_000_000), '$250,000.00');
  });

  it('shows a due date as the same calendar day in any time zone', () => {
    for (const zone of ['Pacific/Honolulu', 'UTC', 'Pacific/Kiritimati']) {
      // Node follows a change of TZ at once: a day read as local midnight would move here.
      process.env.TZ = zone;
      assert.equal(formatCalendarDate('2026-07-15'), 'Jul 15, 2026', zone);
      assert.equal(formatCalendarDate('2027-01-01'), 'Jan 1, 2027', zone);
      assert.equal(formatCalendarDate('2026-12-31'), 'Dec 31, 2026', zone);
    }
    assert.equal(formatCalendarDate('next Tuesday'), 'next Tuesday', 'anything else as it came');
  });

  it('tells open loans from closed ones', () => {
    assert.equal(isOpenLoan({ status: 'ACTIVE' }), true);
    assert.equal(isOpenLoan({ status: 'PAST DUE' }), true);
    assert.equal(isOpenLoan({ status: 'PAID' }), false);
    assert.equal(isOpenLoan({ status: 'CLOSED LOST' }), false);
  });
});

describe('checkout progress', () => {
  const doc = (state: 'to_review' | 'reviewed' | 'signed', requiresSignature: boolean) => ({
    state,
    requiresSignature,
  });

  it('counts a document done once reviewed, or signed when it needs a signature', () => {
    assert.equal(isDocumentDone(doc('to_review', false)), false);
    assert.equal(isDocumentDone(doc('reviewed', false)), true);
    assert.equal(isDocumentDone(doc('to_review', true)), false);
    assert.equal(isDocumentDone(doc('reviewed', true)), false);
    assert.equal(isDocumentDone(doc('signed', true)), true);
  });

  it('says how far along the checkout is', () => {
    const progress = checkoutProgress([
      doc('reviewed', false),
      doc('reviewed', true),
      doc('signed', true),
      doc('to_review', true),
      doc('to_review', false),
    ]);
    assert.deepEqual(progress, { done: 2, total: 5 });
    assert.equal(describeProgress(progress), '2 of 5 documents done');
    assert.equal(describeProgress({ done: 0, total: 1 }), '0 of 1 document done');
  });
});
