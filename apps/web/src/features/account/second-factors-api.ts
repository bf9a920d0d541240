import {
  ACCOUNT_ERROR_CODES,
  SECOND_FACTOR_ERROR_CODES,
  secondFactorEndpoints,
  type AuthenticatorAppEnrolment,
  type SecondFactorList,
} from '@customer-core/contracts';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { describeFailure, stepUpMessageOf } from '../../lib/api-failure';
import { sessionRequest } from '../../lib/auth/session-request';

// The borrower's second factors (Bearer product token): the list, adding an authenticator app with
// its first code, and removing one with the current password.

export type SecondFactorsOutcome =
  | ({ kind: 'loaded' } & SecondFactorList)
  /** MFA_POLICY=off: the section is not shown. */
  | { kind: 'off' }
  | { kind: 'failed'; message: string };

const LIST_FAILED = msg`We couldn’t load your two-step verification just now. Please try again in a few minutes.`;
const START_FAILED = msg`We couldn’t start adding an app just now. Please try again in a few minutes.`;
const CONFIRM_FAILED = msg`We couldn’t add your app just now. Please try again in a few minutes.`;
const REMOVE_FAILED = msg`We couldn’t remove your app just now. Please try again in a few minutes.`;

export async function getSecondFactors(signal?: AbortSignal): Promise<SecondFactorsOutcome> {
  const result = await sessionRequest(secondFactorEndpoints.list, { signal });
  if (result.isError) {
    const failure = describeFailure(result, i18n._(LIST_FAILED));
    if (failure.code === SECOND_FACTOR_ERROR_CODES.off) return { kind: 'off' };
    return { kind: 'failed', message: failure.message };
  }
  return { kind: 'loaded', ...result.data };
}

export type StartOutcome =
  { ok: true; enrolment: AuthenticatorAppEnrolment } | { ok: false; message: string; stepUp?: boolean };

/** Starts adding an authenticator app: its key, waiting for a first code. */
export async function startAuthenticatorApp(): Promise<StartOutcome> {
  const result = await sessionRequest(secondFactorEndpoints.enrolAuthenticatorApp, {});
  if (result.isError) {
    const failure = describeFailure(result, i18n._(START_FAILED));
    const stepUp = stepUpMessageOf(failure);
    if (stepUp) return { ok: false, message: stepUp, stepUp: true };
    return { ok: false, message: failure.serverMessage ?? failure.message };
  }
  return { ok: true, enrolment: result.data };
}

export type ConfirmOutcome =
  | { kind: 'added' }
  /** The code is wrong: its message goes under the code field. */
  | { kind: 'wrong-code'; message: string }
  /** Too many wrong codes: this enrolment is over, the borrower starts adding it again. */
  | { kind: 'start-again'; message: string }
  /** Too old a sign-in: the step-up dialog, then the same code again. */
  | { kind: 'step-up'; message: string }
  | { kind: 'failed'; message: string };

/** The first code from the app adds it. */
export async function confirmAuthenticatorApp(factorId: string, code: string): Promise<ConfirmOutcome> {
  const result = await sessionRequest(secondFactorEndpoints.activate, {
    params: { factorId },
    body: { code },
  });
  if (!result.isError) return { kind: 'added' };
  const failure = describeFailure(result, i18n._(CONFIRM_FAILED));
  if (failure.code === SECOND_FACTOR_ERROR_CODES.wrongCode && failure.serverMessage)
    return { kind: 'wrong-code', message: failure.serverMessage };
  if (failure.code === SECOND_FACTOR_ERROR_CODES.tooManyWrongCodes && failure.serverMessage)
    return { kind: 'start-again', message: failure.serverMessage };
  const stepUp = stepUpMessageOf(failure);
  if (stepUp) return { kind: 'step-up', message: stepUp };
  return { kind: 'failed', message: failure.serverMessage ?? failure.message };
}

export type RemoveOutcome =
  | { kind: 'removed' }
  /** The password is wrong: its message goes under the password field. */
  | { kind: 'wrong-password'; message: string }
  | { kind: 'failed'; message: string };

/** Removes a factor, proving the current password. */
export async function removeSecondFactor(factorId: string, currentPassword: string): Promise<RemoveOutcome> {
  const result = await sessionRequest(secondFactorEndpoints.remove, {
    params: { factorId },
    body: { currentPassword },
  });
  if (!result.isError) return { kind: 'removed' };
  const failure = describeFailure(result, i18n._(REMOVE_FAILED));
  if (failure.code === ACCOUNT_ERROR_CODES.wrongPassword && failure.serverMessage)
    return { kind: 'wrong-password', message: failure.serverMessage };
  return { kind: 'failed', message: failure.serverMessage ?? failure.message };
}
