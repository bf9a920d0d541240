import { msg } from '@lingui/core/macro';
import { i18n } from '@lingui/core';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { STEP_UP_CODE_ERROR_CODES, stepUpEndpoints, type StepUpWays } from '@customer-core/contracts';
import { describeFailure } from '../api-failure';
import { loadIdentityProvider } from '../identity-provider';
import { storeAccessToken } from '../product-session';
import { sessionRequest } from './session-request';
import { renewWithSessionToken } from './sign-in';

// The ways of the step-up dialog besides the password: which the borrower has, and the code e-mailed
// to their sign-in address (a first proof, as an e-mailed link is: a second factor they have follows).

/** What the dialog offers when the API cannot say: the password, which every borrower has. */
const PASSWORD_ONLY: StepUpWays = { passkey: false, emailCode: false, password: true };

const SEND_FAILED = msg`We couldn’t send you a code just now. Try again, or use another way.`;
const CHECK_FAILED = msg`We couldn’t check your code just now. Try again, or use another way.`;

export async function loadStepUpWays(): Promise<StepUpWays> {
  const result = await sessionRequest(stepUpEndpoints.ways).catch(() => undefined);
  return result && !result.isError ? result.data : PASSWORD_ONLY;
}

export type CodeSent = { ok: true; sentTo: string } | { ok: false; message: string };

/** E-mails a code to the borrower's sign-in address; it works in this session only. */
export async function sendStepUpCode(): Promise<CodeSent> {
  const result = await sessionRequest(stepUpEndpoints.sendCode);
  if (!result.isError) return { ok: true, sentTo: result.data.sentTo };
  const failure = describeFailure(result, i18n._(SEND_FAILED));
  return { ok: false, message: failure.serverMessage ?? failure.message };
}

export type CodeChecked =
  /** The product token is renewed: the caller retries. */
  | { kind: 'confirmed' }
  /** The borrower's second factor comes next, in this transaction. */
  | { kind: 'factor'; transaction: AuthnTransaction }
  /** `spent`: this code can no longer work; a new one must be sent. */
  | { kind: 'refused'; message: string; spent: boolean };

export async function confirmWithEmailCode(code: string): Promise<CodeChecked> {
  const result = await sessionRequest(stepUpEndpoints.verifyCode, { body: { code } });
  if (result.isError) {
    const failure = describeFailure(result, i18n._(CHECK_FAILED));
    return {
      kind: 'refused',
      message: failure.serverMessage ?? failure.message,
      spent: failure.code === STEP_UP_CODE_ERROR_CODES.codeSpent,
    };
  }
  const answer = result.data;
  if ('stateToken' in answer) {
    const client = await loadIdentityProvider();
    return { kind: 'factor', transaction: await client.tx.introspect({ stateToken: answer.stateToken }) };
  }
  if ('sessionToken' in answer) await renewWithSessionToken(answer.sessionToken);
  // A directory that mints no session token that way (a hosted org): the API began the session.
  else storeAccessToken(answer.access_token);
  return { kind: 'confirmed' };
}
