import { msg } from '@lingui/core/macro';
import { i18n } from '@lingui/core';
import { API_ERROR_CODES, authEndpoints, type UnrecognizedSignInRequest } from '@customer-core/contracts';
import { apiClient } from '../../lib/api-client';
import { describeFailure } from '../../lib/api-failure';

export type ReportOutcome =
  | { kind: 'signed-out-everywhere'; resetToken: string }
  | { kind: 'invalid-link' }
  | { kind: 'failed'; message: string };

export const REPORT_FAILED = msg`We couldn’t secure your account just now. Please try again in a few minutes.`;

/** POST /api/auth/unrecognized-sign-in: spends the e-mailed token (once); every session ends. */
export async function reportUnrecognizedSignIn(token: string): Promise<ReportOutcome> {
  const body: UnrecognizedSignInRequest = { token };
  const result = await apiClient.call(authEndpoints.unrecognizedSignIn, { body: body });
  if (result.isError) {
    const failure = describeFailure(result, i18n._(REPORT_FAILED));
    // Any other 400 is a token the API could not read at all: just as unusable.
    if (failure.code === API_ERROR_CODES.invalidLink || (result.status === 400 && !result.exceptionThrown)) {
      return { kind: 'invalid-link' };
    }
    return { kind: 'failed', message: failure.message };
  }
  return { kind: 'signed-out-everywhere', resetToken: result.data.resetToken };
}
