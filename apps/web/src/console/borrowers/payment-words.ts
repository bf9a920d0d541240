import type { BankAccountStatus, BorrowerPaymentsView, PaymentStatus } from '@customer-core/contracts';
import { returnReasonOf } from '@customer-core/contracts';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

// A borrower's bank accounts and payments as staff read them: the contracts' values in the console's
// words, each state with the tone of its tag (console-tag--…).

type Tone = 'good' | 'bad' | 'warn' | 'info' | 'muted';
type AccountType = BorrowerPaymentsView['accounts'][number]['type'];
type PaymentKind = BorrowerPaymentsView['payments'][number]['kind'];

export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, MessageDescriptor> = {
  scheduled: msg`Scheduled`,
  pending: msg`Sent to the bank`,
  settled: msg`Settled`,
  returned: msg`Returned`,
  cancelled: msg`Cancelled`,
};

export const PAYMENT_STATUS_TONES: Record<PaymentStatus, Tone> = {
  scheduled: 'info',
  pending: 'info',
  settled: 'good',
  returned: 'bad',
  cancelled: 'muted',
};

export const PAYMENT_KIND_LABELS: Record<PaymentKind, MessageDescriptor> = {
  one_time: msg`One-time`,
  autopay: msg`Autopay`,
};

/** Who cancelled a payment. */
export const CANCELLED_BY_LABELS: Record<'borrower' | 'staff' | 'portal', MessageDescriptor> = {
  borrower: msg`Cancelled by the borrower.`,
  staff: msg`Cancelled by staff.`,
  portal: msg`Cancelled by the portal: the account could no longer be debited.`,
};

export const BANK_ACCOUNT_STATUS_LABELS: Record<BankAccountStatus, MessageDescriptor> = {
  pending_verification: msg`Waiting for verification`,
  verified: msg`Verified`,
  failed: msg`Verification failed`,
  disabled: msg`Disabled`,
};

export const BANK_ACCOUNT_STATUS_TONES: Record<BankAccountStatus, Tone> = {
  pending_verification: 'info',
  verified: 'good',
  failed: 'bad',
  disabled: 'bad',
};

export const BANK_ACCOUNT_TYPE_LABELS: Record<AccountType, MessageDescriptor> = {
  checking: msg`Checking`,
  savings: msg`Savings`,
};

// The contracts' English for what a return code means (RETURN_REASONS, OTHER_RETURN_REASON) and the
// API's words for a cancellation refused, known by their English as the console's other contract
// messages are (i18n/contract-messages.ts), so that each shows in the console's language. No screen
// imports this list; the console's payments test holds it to the contracts.
export const PAYMENT_CONTRACT_MESSAGES = [
  msg({
    id: 'There wasn’t enough money in the account.',
    message: 'There wasn’t enough money in the account.',
  }),
  msg({
    id: 'The money in the account wasn’t available yet.',
    message: 'The money in the account wasn’t available yet.',
  }),
  msg({ id: 'The account is closed.', message: 'The account is closed.' }),
  msg({ id: 'The bank couldn’t find the account.', message: 'The bank couldn’t find the account.' }),
  msg({ id: 'The account number isn’t valid.', message: 'The account number isn’t valid.' }),
  msg({ id: 'The account is frozen.', message: 'The account is frozen.' }),
  msg({
    id: 'The account doesn’t allow this kind of payment.',
    message: 'The account doesn’t allow this kind of payment.',
  }),
  msg({ id: 'A stop payment was placed on it.', message: 'A stop payment was placed on it.' }),
  msg({
    id: 'The bank says the account isn’t a business account.',
    message: 'The bank says the account isn’t a business account.',
  }),
  msg({
    id: 'The account holder withdrew the authorization.',
    message: 'The account holder withdrew the authorization.',
  }),
  msg({
    id: 'The account holder told their bank it wasn’t authorized.',
    message: 'The account holder told their bank it wasn’t authorized.',
  }),
  msg({
    id: 'The business told its bank it wasn’t authorized.',
    message: 'The business told its bank it wasn’t authorized.',
  }),
  msg({ id: 'The bank returned the payment.', message: 'The bank returned the payment.' }),
  // A staff cancellation refused (409 not_cancellable, 404).
  msg({
    id: 'This payment can’t be cancelled any more: it’s on its way to the bank.',
    message: 'This payment can’t be cancelled any more: it’s on its way to the bank.',
  }),
  msg({ id: 'No payment has that id.', message: 'No payment has that id.' }),
];

/**
 * A return code with what it means, in the console's language ("R01: There wasn’t enough money in the
 * account."), in English where the catalogue lacks the contracts' words.
 */
export function returnCodeWords(code: string, i18n: I18n): string {
  const english = returnReasonOf(code).words;
  return `${code}: ${i18n.messages[english] === undefined ? english : i18n._(english)}`;
}
