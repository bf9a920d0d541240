import { msg } from '@lingui/core/macro';
import { i18n } from '@lingui/core';
import {
  API_ERROR_CODES,
  applicationEndpoints,
  type EmailVerificationRequest,
  type EmailVerificationResponse,
} from '@customer-core/contracts';
import { apiClient } from '../../lib/api-client';
import { describeFailure } from '../../lib/api-failure';

export type EmailVerificationOutcome =
  | { kind: 'verified'; verification: EmailVerificationResponse }
  | { kind: 'invalid-link'; message: string | null }
  | { kind: 'failed'; message: string };

export const VERIFICATION_FAILED = msg`We couldn’t verify your email address just now. Please try again in a few minutes.`;

/** POST /api/applications/email-verification: the e-mailed token, on the applicant's explicit action. */
export async function verifyEmail(token: string): Promise<EmailVerificationOutcome> {
  const body: EmailVerificationRequest = { token };
  const result = await apiClient.call(applicationEndpoints.verifyEmail, { body });
  if (!result.isError) return { kind: 'verified', verification: result.data };
  const failure = describeFailure(result, i18n._(VERIFICATION_FAILED));
  // Any other 400 is a token the API could not read at all: just as unusable.
  if (failure.code === API_ERROR_CODES.invalidLink || (result.status === 400 && !result.exceptionThrown)) {
    return { kind: 'invalid-link', message: failure.serverMessage };
  }
  return { kind: 'failed', message: failure.message };
}
