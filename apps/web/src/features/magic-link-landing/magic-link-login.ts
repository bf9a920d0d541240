import { msg } from '@lingui/core/macro';
import { i18n } from '@lingui/core';
import {
  API_ERROR_CODES,
  LINK_NEEDS_PASSWORD_MESSAGE,
  authEndpoints,
  type LinkFactorStep,
  type LinkSignedIn,
  type MagicLinkLoginRequest,
} from '@customer-core/contracts';
import { apiClient } from '../../lib/api-client';
import { describeFailure } from '../../lib/api-failure';

export type MagicLinkLoginOutcome =
  | { kind: 'signed-in'; session: LinkSignedIn }
  /** The borrower's second factor comes next, in the identity provider's transaction. */
  | { kind: 'factor'; step: LinkFactorStep }
  | { kind: 'invalid-link' }
  | { kind: 'failed'; message: string };

export const SIGN_IN_FAILED = msg`We couldn’t sign you in just now. Please try again in a few minutes.`;

/** POST /api/auth/magic-link-login: spends the e-mailed token (once) for the borrower's session. */
export async function magicLinkLogin(token: string): Promise<MagicLinkLoginOutcome> {
  const body: MagicLinkLoginRequest = { token };
  const result = await apiClient.call(authEndpoints.magicLinkLogin, { body: body });
  if (result.isError) {
    const failure = describeFailure(result, i18n._(SIGN_IN_FAILED));
    // Any other 400 is a token the API could not read at all: just as unusable.
    if (failure.code === API_ERROR_CODES.invalidLink || (result.status === 400 && !result.exceptionThrown)) {
      return { kind: 'invalid-link' };
    }
    if (failure.code === API_ERROR_CODES.linkNeedsPassword)
      return { kind: 'failed', message: LINK_NEEDS_PASSWORD_MESSAGE };
    return { kind: 'failed', message: failure.message };
  }
  return 'stateToken' in result.data
    ? { kind: 'factor', step: result.data }
    : { kind: 'signed-in', session: result.data };
}
