import { secondFactorEndpoints, type EmailCodeEnrolment } from '@customer-core/contracts';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { describeFailure, stepUpMessageOf } from '../../lib/api-failure';
import { sessionRequest } from '../../lib/auth/session-request';
import { type StartOutcome } from './second-factors-api';

// Email codes on the account page: start (a code is mailed), send another. The code confirms them
// through confirmAuthenticatorApp's route (activate), which takes any pending factor's first code.

const START_FAILED = msg`We couldn’t send you a code just now. Please try again in a few minutes.`;
const RESEND_FAILED = msg`We couldn’t send a new code just now. Please try again in a few minutes.`;

export type StartEmailOutcome =
  { ok: true; enrolment: EmailCodeEnrolment } | Extract<StartOutcome, { ok: false }>;

export async function startEmailCodes(): Promise<StartEmailOutcome> {
  const result = await sessionRequest(secondFactorEndpoints.enrolEmail, {});
  if (result.isError) {
    const failure = describeFailure(result, i18n._(START_FAILED));
    const stepUp = stepUpMessageOf(failure);
    if (stepUp) return { ok: false, message: stepUp, stepUp: true };
    return { ok: false, message: failure.serverMessage ?? failure.message };
  }
  return { ok: true, enrolment: result.data };
}

/** Another code; undefined when it was sent, else what to tell the borrower. */
export async function resendEmailCode(factorId: string): Promise<string | undefined> {
  const result = await sessionRequest(secondFactorEndpoints.resendCode, { params: { factorId } });
  if (!result.isError) return undefined;
  const failure = describeFailure(result, i18n._(RESEND_FAILED));
  return failure.serverMessage ?? failure.message;
}
