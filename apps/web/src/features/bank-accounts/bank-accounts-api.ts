import {
  PAYMENT_ERROR_CODES,
  STEP_UP_REQUIRED,
  paymentEndpoints,
  type AddBankAccountRequest,
  type BankAccount,
  type VerifyBankAccountRequest,
} from '@customer-core/contracts';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { describeFailure } from '../../lib/api-failure';
import { sessionRequest } from '../../lib/auth/session-request';
import { getLenderBranding } from '../../config/portal-config-meta';

// The borrower's business bank accounts (Bearer product token): the list, adding one (a recent
// sign-in), verifying it with the two micro-deposits, removing one (a recent sign-in). The API's
// refusals are said here in the portal's words, by their code: its own messages are English.

const LIST_FAILED = msg`We couldn’t load your bank accounts just now. Please try again in a few minutes.`;
const ADD_FAILED = msg`We couldn’t add your bank account just now. Please try again in a few minutes.`;
const VERIFY_FAILED = msg`We couldn’t check the amounts just now. Please try again in a few minutes.`;
const REMOVE_FAILED = msg`We couldn’t remove your bank account just now. Please try again in a few minutes.`;
const EXISTS = msg`You’ve added this bank account already.`;
const TOO_MANY = msg`You have as many bank accounts as you can add. Remove one first.`;
const IN_USE = msg`A payment on its way or autopay uses this account. Remove it once they no longer do.`;
const GONE = msg`That bank account is no longer on your list.`;
const notVerifiable = (phone: string) =>
  msg`This account can’t be verified now. Call us at ${phone} for help.`;
const NOT_VERIFIABLE_NO_PHONE = msg`This account can’t be verified now. Call us for help.`;

/** The fields of the add form, which a refusal of the API may name. */
export type AddField = keyof AddBankAccountRequest;
const ADD_FIELDS: readonly string[] = [
  'holderName',
  'routingNumber',
  'accountNumber',
  'accountNumberAgain',
  'type',
] satisfies AddField[];

export type ListOutcome = { kind: 'loaded'; accounts: BankAccount[] } | { kind: 'failed'; message: string };

export async function getBankAccounts(signal?: AbortSignal): Promise<ListOutcome> {
  const result = await sessionRequest(paymentEndpoints.bankAccounts, { signal });
  if (result.isError)
    return { kind: 'failed', message: describeFailure(result, i18n._(LIST_FAILED)).message };
  return { kind: 'loaded', accounts: result.data.accounts };
}

export type AddOutcome =
  | { kind: 'added'; account: BankAccount }
  /** Too old a sign-in: the step-up dialog, then the same request again. */
  | { kind: 'step-up' }
  /** A field refused by the API's checks (the same as the form's): its message, in English. */
  | { kind: 'invalid'; field: AddField; message: string }
  | { kind: 'failed'; message: string };

/**
 * A 400's fields and messages, as the API writes them: "routingNumber: This routing number isn’t
 * valid…", several joined by "; ". The first about a field of the form.
 */
function refusedField(message: string): { field: AddField; message: string } | undefined {
  for (const part of message.split('; ')) {
    const at = part.indexOf(': ');
    if (at > 0 && ADD_FIELDS.includes(part.slice(0, at)))
      return { field: part.slice(0, at) as AddField, message: part.slice(at + 2) };
  }
  return undefined;
}

/** The API's own message, as it wrote it (describeFailure's is in the portal's language). */
function englishMessageOf(responseText: string): string {
  try {
    const { message } = JSON.parse(responseText) as { message?: unknown };
    return typeof message === 'string' ? message : '';
  } catch {
    return '';
  }
}

export async function addBankAccount(request: AddBankAccountRequest): Promise<AddOutcome> {
  const result = await sessionRequest(paymentEndpoints.addBankAccount, { body: request });
  if (!result.isError) return { kind: 'added', account: result.data };
  const failure = describeFailure(result, i18n._(ADD_FAILED));
  if (failure.code === STEP_UP_REQUIRED) return { kind: 'step-up' };
  if (failure.code === PAYMENT_ERROR_CODES.accountExists) return { kind: 'failed', message: i18n._(EXISTS) };
  if (failure.code === PAYMENT_ERROR_CODES.tooManyAccounts)
    return { kind: 'failed', message: i18n._(TOO_MANY) };
  if (failure.code === 'bad_request' && !result.exceptionThrown) {
    const refused = refusedField(englishMessageOf(result.responseText));
    if (refused) return { kind: 'invalid', ...refused };
  }
  return { kind: 'failed', message: failure.message };
}

export type VerifyOutcome =
  | { kind: 'verified'; account: BankAccount }
  /** Not the amounts sent: the list says how many tries are left (or that there are none). */
  | { kind: 'wrong-amounts' }
  /** Removed meanwhile, or the list is out of date: it loads again. */
  | { kind: 'gone'; message: string }
  | { kind: 'failed'; message: string };

export async function verifyBankAccount(
  accountId: string,
  amounts: VerifyBankAccountRequest,
): Promise<VerifyOutcome> {
  const result = await sessionRequest(paymentEndpoints.verifyBankAccount, {
    params: { accountId },
    body: amounts,
  });
  if (!result.isError) return { kind: 'verified', account: result.data };
  const failure = describeFailure(result, i18n._(VERIFY_FAILED));
  if (failure.code === PAYMENT_ERROR_CODES.wrongAmounts) return { kind: 'wrong-amounts' };
  if (failure.code === PAYMENT_ERROR_CODES.notVerifiable) {
    const phone = getLenderBranding().supportPhone;
    return {
      kind: 'failed',
      message: phone ? i18n._(notVerifiable(phone)) : i18n._(NOT_VERIFIABLE_NO_PHONE),
    };
  }
  if (failure.code === 'not_found') return { kind: 'gone', message: i18n._(GONE) };
  return { kind: 'failed', message: failure.message };
}

export type RemoveOutcome =
  | { kind: 'removed'; accounts: BankAccount[] }
  | { kind: 'step-up' }
  | { kind: 'gone'; message: string }
  | { kind: 'failed'; message: string };

export async function removeBankAccount(accountId: string): Promise<RemoveOutcome> {
  const result = await sessionRequest(paymentEndpoints.removeBankAccount, { params: { accountId } });
  if (!result.isError) return { kind: 'removed', accounts: result.data.accounts };
  const failure = describeFailure(result, i18n._(REMOVE_FAILED));
  if (failure.code === STEP_UP_REQUIRED) return { kind: 'step-up' };
  if (failure.code === PAYMENT_ERROR_CODES.accountInUse) return { kind: 'failed', message: i18n._(IN_USE) };
  if (failure.code === 'not_found') return { kind: 'gone', message: i18n._(GONE) };
  return { kind: 'failed', message: failure.message };
}
