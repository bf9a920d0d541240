import {
  ACCOUNT_ERROR_CODES,
  TOO_MANY_CHANGES_MESSAGE,
  accountEndpoints,
  type AccountSession,
  type ChangeEmailRequest,
  type ChangePasswordRequest,
  type EndedSessions,
} from '@customer-core/contracts';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ApiResult } from '../../lib/api-client';
import { describeFailure, stepUpMessageOf } from '../../lib/api-failure';
import { sessionRequest } from '../../lib/auth/session-request';
import { inPortalLanguage } from '../../i18n/in-portal-language';

// The borrower's own account (Bearer product token): their sign-in sessions, ending other ones,
// changing the password and the sign-in email address.

export type SessionsOutcome =
  { kind: 'loaded'; sessions: AccountSession[] } | { kind: 'failed'; message: string };
export type EndOutcome = { ok: true; ended: number } | { ok: false; message: string };

const LIST_FAILED = msg`We couldn’t load where you’re signed in just now. Please try again in a few minutes.`;
const END_FAILED = msg`We couldn’t sign that device out just now. Please try again in a few minutes.`;

export async function getSessions(signal?: AbortSignal): Promise<SessionsOutcome> {
  const result = await sessionRequest(accountEndpoints.sessions, { signal });
  if (result.isError)
    return { kind: 'failed', message: describeFailure(result, i18n._(LIST_FAILED)).message };
  return { kind: 'loaded', sessions: result.data.sessions };
}

const ALREADY_ENDED = msg`That device was already signed out.`;

async function end(call: Promise<ApiResult<EndedSessions>>): Promise<EndOutcome> {
  const result = await call;
  if (result.isError) {
    // Ended meanwhile (elsewhere, or it expired): the list is out of date, not the borrower wrong.
    if (result.status === 404 && !result.exceptionThrown)
      return { ok: false, message: i18n._(ALREADY_ENDED) };
    return { ok: false, message: describeFailure(result, i18n._(END_FAILED)).message };
  }
  return { ok: true, ended: result.data.ended };
}

/** Signs out one other session of the borrower. */
export const endSession = (sessionId: string) =>
  end(sessionRequest(accountEndpoints.endSession, { params: { sessionId } }));

/** Signs out every session of the borrower but this one. */
export const endOtherSessions = () => end(sessionRequest(accountEndpoints.endOtherSessions, {}));

export type ChangePasswordOutcome =
  | { kind: 'changed'; endedSessions: number }
  /** The current password is wrong: its message goes under that field. */
  | { kind: 'wrong-password'; message: string }
  /** The new password is refused (too common, the directory's policy, the same): under that field. */
  | { kind: 'password-refused'; message: string }
  | { kind: 'failed'; message: string };

const CHANGE_FAILED = msg`We couldn’t change your password just now. Please try again in a few minutes.`;

/** Changes the borrower's password, proving the current one. */
export async function changePassword(request: ChangePasswordRequest): Promise<ChangePasswordOutcome> {
  const result = await sessionRequest(accountEndpoints.password, { body: request });
  if (!result.isError) return { kind: 'changed', endedSessions: result.data.endedSessions };
  const failure = describeFailure(result, i18n._(CHANGE_FAILED));
  if (failure.code === ACCOUNT_ERROR_CODES.tooManyChanges)
    return { kind: 'failed', message: inPortalLanguage(TOO_MANY_CHANGES_MESSAGE) };
  if (result.status === 400 && !result.exceptionThrown && failure.serverMessage) {
    if (failure.code === ACCOUNT_ERROR_CODES.wrongPassword)
      return { kind: 'wrong-password', message: failure.serverMessage };
    if (failure.code !== ACCOUNT_ERROR_CODES.noPassword)
      return { kind: 'password-refused', message: failure.serverMessage };
  }
  return { kind: 'failed', message: failure.message };
}

export type AccountEmailOutcome =
  { kind: 'loaded'; email: string; changeable: boolean } | { kind: 'failed'; message: string };

const EMAIL_FAILED = msg`We couldn’t load your email address just now. Please try again in a few minutes.`;

/** The borrower's sign-in email address, and whether it is changed here or with the lender. */
export async function getAccountEmail(signal?: AbortSignal): Promise<AccountEmailOutcome> {
  const result = await sessionRequest(accountEndpoints.email, { signal });
  if (result.isError)
    return { kind: 'failed', message: describeFailure(result, i18n._(EMAIL_FAILED)).message };
  return { kind: 'loaded', ...result.data };
}

export type ChangeEmailOutcome =
  | { kind: 'sent' }
  /** Too old a sign-in: the borrower confirms it's them, then the same request is made again. */
  | { kind: 'step-up'; message: string }
  /** The address is refused (the current one, not an address): under the field. */
  | { kind: 'refused'; message: string }
  | { kind: 'failed'; message: string };

const ASK_FAILED = msg`We couldn’t send the link just now. Please try again in a few minutes.`;

/** Asks for a link to the new address; nothing changes until it is used. */
export async function changeEmail(request: ChangeEmailRequest): Promise<ChangeEmailOutcome> {
  const result = await sessionRequest(accountEndpoints.changeEmail, { body: request });
  if (!result.isError) return { kind: 'sent' };
  const failure = describeFailure(result, i18n._(ASK_FAILED));
  const stepUp = stepUpMessageOf(failure);
  if (stepUp) return { kind: 'step-up', message: stepUp };
  if (result.status === 400 && failure.serverMessage)
    return { kind: 'refused', message: failure.serverMessage };
  return { kind: 'failed', message: failure.serverMessage ?? failure.message };
}

export type ConfirmEmailOutcome = { kind: 'changed'; email: string } | { kind: 'failed'; message: string };

const CONFIRM_FAILED = msg`We couldn’t change your email address just now. Please try again in a few minutes.`;

/** Uses the link sent to the new address: the change happens now. */
export async function confirmEmailChange(token: string): Promise<ConfirmEmailOutcome> {
  const result = await sessionRequest(accountEndpoints.confirmEmail, { body: { token } });
  if (!result.isError) return { kind: 'changed', email: result.data.email };
  const failure = describeFailure(result, i18n._(CONFIRM_FAILED));
  return { kind: 'failed', message: failure.serverMessage ?? failure.message };
}
