import { i18n } from './support/i18n.ts';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OTHER_RETURN_REASON, RETURN_REASONS, operatorPaymentEndpoints } from '@customer-core/contracts';
import { staffMay } from '../src/console/lib/staff-access.ts';
import { PAYMENT_CONTRACT_MESSAGES, returnCodeWords } from '../src/console/borrowers/payment-words.ts';

// The borrower's payments at the console: who may see and cancel them, and what a return code means
// in the console's words (the contracts' English, held in the console's catalogue).

describe('a borrower’s payments at the console', () => {
  it('lets support see the payments and cancel one', () => {
    for (const role of ['support', 'admin'] as const) {
      assert.equal(staffMay(role, operatorPaymentEndpoints.borrowerPayments), true, role);
      assert.equal(staffMay(role, operatorPaymentEndpoints.cancelPayment), true, role);
    }
  });

  it('holds every return code’s words in the console’s catalogue, by its English', () => {
    const ids = new Set(PAYMENT_CONTRACT_MESSAGES.map((descriptor) => descriptor.id));
    for (const descriptor of PAYMENT_CONTRACT_MESSAGES) assert.equal(descriptor.message, descriptor.id);
    for (const { words } of [...Object.values(RETURN_REASONS), OTHER_RETURN_REASON])
      assert.ok(ids.has(words), words);
  });

  it('says a return code with what it means, any other code as the bank returning the payment', () => {
    assert.equal(returnCodeWords('R01', i18n), 'R01: There wasn’t enough money in the account.');
    assert.equal(returnCodeWords('R99', i18n), 'R99: The bank returned the payment.');
  });
});
