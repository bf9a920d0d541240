import {
  ACCOUNT_ERROR_CODES,
  recoveryCodeEndpoints,
  type RecoveryCodeStatus,
} from '@customer-core/contracts';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { describeFailure } from '../../lib/api-failure';
import { sessionRequest } from '../../lib/auth/session-request';

// The borrower's recovery codes: whether they are offered and how many are left, and a new set.

const STATUS_FAILED = msg`We couldn’t load your recovery codes just now. Please try again in a few minutes.`;
const GENERATE_FAILED = msg`We couldn’t make new recovery codes just now. Please try again in a few minutes.`;

export type RecoveryStatusOutcome =
  ({ kind: 'loaded' } & RecoveryCodeStatus) | { kind: 'off' } | { kind: 'failed'; message: string };

export async function getRecoveryCodeStatus(signal?: AbortSignal): Promise<RecoveryStatusOutcome> {
  const result = await sessionRequest(recoveryCodeEndpoints.status, { signal });
  if (result.isError) {
    // Second factors off (403): nothing to show.
    if (result.status === 403) return { kind: 'off' };
    return { kind: 'failed', message: describeFailure(result, i18n._(STATUS_FAILED)).message };
  }
  return { kind: 'loaded', ...result.data };
}

export type GenerateOutcome =
  | { kind: 'made'; codes: string[] }
  | { kind: 'wrong-password'; message: string }
  | { kind: 'failed'; message: string };

export async function generateRecoveryCodes(currentPassword: string): Promise<GenerateOutcome> {
  const result = await sessionRequest(recoveryCodeEndpoints.generate, { body: { currentPassword } });
  if (!result.isError) return { kind: 'made', codes: result.data.codes };
  const failure = describeFailure(result, i18n._(GENERATE_FAILED));
  if (failure.code === ACCOUNT_ERROR_CODES.wrongPassword && failure.serverMessage)
    return { kind: 'wrong-password', message: failure.serverMessage };
  return { kind: 'failed', message: failure.serverMessage ?? failure.message };
}
