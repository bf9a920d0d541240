import {
  paymentEndpoints,
  type Autopay,
  type AutopayRequest,
  type BankAccount,
  type LoanPayments,
  type MakePaymentRequest,
  type Payment,
} from '@customer-core/contracts';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ApiResult } from '../../lib/api-client';
import { describeFailure } from '../../lib/api-failure';
import { sessionRequest } from '../../lib/auth/session-request';

// A loan's payments and autopay, and the borrower's bank accounts, as the signed-in borrower (Bearer
// product token). A refusal is said in the screen's words for its code, the API's own message (in the
// portal's language where catalogued) for a code it has none for.

export type Loaded<T> =
  { kind: 'loaded'; value: T } | { kind: 'not-found' } | { kind: 'failed'; message: string };

/** An action's outcome: its answer, or why not (`code`: the API's refusal, null for a failure). */
export type ActionOutcome<T> = { ok: true; value: T } | { ok: false; code: string | null; message: string };

const PAYMENTS_FAILED = msg`We couldn’t load this loan’s payments just now. Please try again in a few minutes.`;
const ACCOUNTS_FAILED = msg`We couldn’t load your bank accounts just now. Please try again in a few minutes.`;
const PAYMENT_FAILED = msg`We couldn’t confirm your payment just now. Please try again: it won’t be paid twice.`;
const ACTION_FAILED = msg`We couldn’t save that just now. Please try again in a few minutes.`;
const GONE = msg`This loan or bank account is no longer in your account.`;

function loaded<T>(result: ApiResult<T>, fallback: typeof PAYMENTS_FAILED): Loaded<T> {
  if (!result.isError) return { kind: 'loaded', value: result.data };
  if (result.status === 404 && !result.exceptionThrown) return { kind: 'not-found' };
  return { kind: 'failed', message: describeFailure(result, i18n._(fallback)).message };
}

function outcome<T>(result: ApiResult<T>, fallback: typeof ACTION_FAILED): ActionOutcome<T> {
  if (!result.isError) return { ok: true, value: result.data };
  const failure = describeFailure(result, i18n._(fallback));
  if (result.status === 404 && !result.exceptionThrown)
    return { ok: false, code: 'not_found', message: i18n._(GONE) };
  if (result.status === 409 || result.status === 400) {
    // The API's refusals are in the catalogue (shared-messages.ts): its message, in the portal's language.
    if (failure.serverMessage) return { ok: false, code: failure.code, message: failure.serverMessage };
  }
  return { ok: false, code: null, message: failure.message };
}

/** What can be paid on the loan from which days, its payments (newest first) and autopay. */
export async function getLoanPayments(loanId: string, signal?: AbortSignal): Promise<Loaded<LoanPayments>> {
  return loaded(
    await sessionRequest(paymentEndpoints.loanPayments, { params: { loanId }, signal }),
    PAYMENTS_FAILED,
  );
}

export async function getBankAccounts(
  signal?: AbortSignal,
): Promise<Exclude<Loaded<BankAccount[]>, { kind: 'not-found' }>> {
  const result = await sessionRequest(paymentEndpoints.bankAccounts, { signal });
  if (!result.isError) return { kind: 'loaded', value: result.data.accounts };
  return { kind: 'failed', message: describeFailure(result, i18n._(ACCOUNTS_FAILED)).message };
}

/** Schedules the payment; the same idempotency key again answers with the same payment. */
export async function makePayment(loanId: string, body: MakePaymentRequest): Promise<ActionOutcome<Payment>> {
  return outcome(
    await sessionRequest(paymentEndpoints.makePayment, { params: { loanId }, body }),
    PAYMENT_FAILED,
  );
}

export async function cancelPayment(loanId: string, paymentId: string): Promise<ActionOutcome<Payment>> {
  return outcome(
    await sessionRequest(paymentEndpoints.cancelPayment, { params: { loanId, paymentId } }),
    ACTION_FAILED,
  );
}

export async function turnOnAutopay(loanId: string, body: AutopayRequest): Promise<ActionOutcome<Autopay>> {
  return outcome(
    await sessionRequest(paymentEndpoints.turnOnAutopay, { params: { loanId }, body }),
    ACTION_FAILED,
  );
}

export async function turnOffAutopay(loanId: string): Promise<ActionOutcome<Autopay>> {
  return outcome(
    await sessionRequest(paymentEndpoints.turnOffAutopay, { params: { loanId } }),
    ACTION_FAILED,
  );
}
