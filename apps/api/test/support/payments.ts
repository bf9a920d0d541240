import assert from 'node:assert/strict';
import { paymentEndpoints, type BankAccount, type LoanPayments } from '@customer-core/contracts';
import { TEST_HOLDER, TEST_ROUTING } from '../../testing/payments.js';
import { call } from './loans.js';

// The payment API tests' own calls; what they share with the browser tests is testing/payments.ts.

export async function addAccount(
  url: string,
  token: string,
  accountNumber: string,
  routingNumber = TEST_ROUTING,
): Promise<BankAccount> {
  const added = await call(url, 'POST', paymentEndpoints.addBankAccount.path, token, {
    holderName: TEST_HOLDER,
    routingNumber,
    accountNumber,
    accountNumberAgain: accountNumber,
    type: 'checking',
  });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  return added.body as unknown as BankAccount;
}

export async function operator<T>(
  url: string,
  secret: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
) {
  const answer = await call(url, method, path, secret, body);
  return answer as { status: number; body: T & Record<string, unknown> };
}

export async function loanPaymentsOf(url: string, token: string, loanId: string): Promise<LoanPayments> {
  const answer = await call(url, 'GET', paymentEndpoints.loanPayments.href({ loanId }), token);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body as unknown as LoanPayments;
}
