import { msg } from '@lingui/core/macro';
import { i18n } from '@lingui/core';
import {
  API_ERROR_CODES,
  authEndpoints,
  type PasswordResetCheckRequest,
  type PasswordResetFinishRequest,
} from '@customer-core/contracts';
import { apiClient } from '../../lib/api-client';
import { describeFailure } from '../../lib/api-failure';

export type PasswordResetOutcome =
  | { kind: 'changed' }
  | { kind: 'invalid-link' }
  /** The API refused the password itself (e.g. too common): its message goes under the field. */
  | { kind: 'password-refused'; message: string }
  | { kind: 'failed'; message: string };

const FAILED = msg`We couldn’t change your password just now. Please try again in a few minutes.`;
const PASSWORD_REFUSED = msg`This password can’t be used. Please choose a different one.`;

/** POST /api/auth/password-reset-finish: the e-mailed token and the new password. */
export async function finishPasswordReset(token: string, password: string): Promise<PasswordResetOutcome> {
  const body: PasswordResetFinishRequest = { token, password };
  const result = await apiClient.call(authEndpoints.passwordResetFinish, { body: body });
  if (!result.isError) return { kind: 'changed' };
  const failure = describeFailure(result, i18n._(FAILED));
  if (failure.code === API_ERROR_CODES.invalidLink) return { kind: 'invalid-link' };
  if (result.status === 400 && !result.exceptionThrown) {
    return { kind: 'password-refused', message: failure.serverMessage ?? i18n._(PASSWORD_REFUSED) };
  }
  return { kind: 'failed', message: failure.message };
}

/**
 * POST /api/auth/password-reset-check: whether the page's link still works, asked when the page opens
 * (it spends nothing). Only a refused link counts as dead: when the check itself fails, the form shows
 * and the save says what it finds.
 */
export async function checkPasswordResetLink(
  token: string,
  signal?: AbortSignal,
): Promise<'usable' | 'invalid-link'> {
  const body: PasswordResetCheckRequest = { token };
  const result = await apiClient.call(authEndpoints.passwordResetCheck, { body: body, signal });
  if (!result.isError) return 'usable';
  const failure = describeFailure(result, i18n._(FAILED));
  // Any other 400 is a token the API could not read at all: just as dead.
  if (failure.code === API_ERROR_CODES.invalidLink || (result.status === 400 && !result.exceptionThrown)) {
    return 'invalid-link';
  }
  return 'usable';
}
