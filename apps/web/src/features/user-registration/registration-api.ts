import { msg } from '@lingui/core/macro';
import { i18n } from '@lingui/core';
import {
  API_ERROR_CODES,
  registrationEndpoints,
  type Invitation,
  type InvitationLookupRequest,
  type LinkFactorStep,
  type LinkSignedIn,
  type RegistrationRequest,
} from '@customer-core/contracts';
import { apiClient } from '../../lib/api-client';
import { describeFailure } from '../../lib/api-failure';
import { chosenLanguage } from '../../i18n/language';

// The registration calls: who the invitation is for, then the account with the chosen password.

/** An invitation that cannot be used (unknown, expired, used, replaced): the API says whom to contact. */
export type InvitationRefused =
  | { kind: 'invalid-invitation'; message: string | null }
  | { kind: 'already-registered'; message: string | null };

export type InvitationLookupOutcome =
  { kind: 'found'; invitation: Invitation } | InvitationRefused | { kind: 'failed'; message: string };

export type RegistrationOutcome =
  | { kind: 'registered'; session: LinkSignedIn }
  /** A second factor is enrolled first (MFA_POLICY=required), in the identity provider's transaction. */
  | { kind: 'enrol-factor'; step: LinkFactorStep }
  | InvitationRefused
  /** The API refused the password itself (too common, a rule): its message goes under the field. */
  | { kind: 'password-refused'; message: string }
  | { kind: 'failed'; message: string };

export const LOOKUP_FAILED = msg`Our server did not answer as expected. Please try again in a few minutes.`;
export const REGISTRATION_FAILED = msg`We couldn’t create your account just now. Please try again in a few minutes.`;
const PASSWORD_REFUSED = msg`This password can’t be used. Please choose a different one.`;

function refusal(code: string | null, message: string | null): InvitationRefused | null {
  if (code === API_ERROR_CODES.invalidLink) return { kind: 'invalid-invitation', message };
  if (code === API_ERROR_CODES.alreadyRegistered) return { kind: 'already-registered', message };
  return null;
}

/** POST /api/registration/invitation: the token in the body, so that it stays out of logs. */
export async function lookupInvitation(
  token: string,
  signal?: AbortSignal,
): Promise<InvitationLookupOutcome> {
  const body: InvitationLookupRequest = { token };
  const result = await apiClient.call(registrationEndpoints.invitation, { body, signal });
  if (!result.isError) return { kind: 'found', invitation: result.data };
  const failure = describeFailure(result, i18n._(LOOKUP_FAILED));
  const refused = refusal(failure.code, failure.serverMessage);
  if (refused) return refused;
  // Any other 400 is a token the API could not read at all: just as unusable.
  if (result.status === 400 && !result.exceptionThrown) {
    return { kind: 'invalid-invitation', message: failure.serverMessage };
  }
  return { kind: 'failed', message: failure.message };
}

/**
 * POST /api/registration: creates the identity with the password, in the language the borrower
 * registered in; answers as a sign-in link does.
 */
export async function register(token: string, password: string): Promise<RegistrationOutcome> {
  const locale = chosenLanguage();
  const body: RegistrationRequest = { token, password, ...(locale ? { locale } : {}) };
  const result = await apiClient.call(registrationEndpoints.register, { body });
  if (!result.isError) {
    return 'stateToken' in result.data
      ? { kind: 'enrol-factor', step: result.data }
      : { kind: 'registered', session: result.data };
  }
  const failure = describeFailure(result, i18n._(REGISTRATION_FAILED));
  const refused = refusal(failure.code, failure.serverMessage);
  if (refused) return refused;
  if (result.status === 400 && !result.exceptionThrown) {
    return { kind: 'password-refused', message: failure.serverMessage ?? i18n._(PASSWORD_REFUSED) };
  }
  return { kind: 'failed', message: failure.message };
}
