import {
  CONSOLE_ERROR_CODES,
  IDP_SCOPES,
  consoleEndpoints,
  type ConsoleSession,
} from '@customer-core/contracts';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { apiClient } from '../../lib/api-client';
import { describeFailure } from '../../lib/api-failure';
import { IdentityProviderUnavailableError } from '../../lib/identity-provider-availability';
import { loadIdentityProvider, type IdentityProviderClient } from '../../lib/identity-provider';
import { dismissLandingNotice } from '../../lib/landing-notice';

// A staff member's sign-in: the identity provider's authn API (Classic) as a borrower's sign-in uses it,
// the password and then a second factor (always, for staff: one is set up first where there is none),
// and the ID token of that sign-in exchanged for a console token at the API. Unlike a borrower's, it
// touches no product session and leaves no tokens in okta-auth-js's storage, and never redirects.

/** Why a sign-in did not end in a console session, each said its own way on the sign-in screen. */
export type SignInProblem =
  /** The identity provider refused the email address and password (or paused the account). */
  | 'wrong-password'
  /** A valid sign-in of someone who is not staff (a borrower, or staff whose role was taken away). */
  | 'not-staff'
  /** A sign-in without a second factor: staff always need one. */
  | 'second-factor-required'
  /** The ID token could not be used (spent, revoked, its provider session ended): start again. */
  | 'start-again'
  /** No identity provider client on this page, or the provider or the API can't be reached. */
  | 'unavailable'
  | 'too-many'
  | 'failed';

export type SignInStep =
  | { kind: 'signed-in'; session: ConsoleSession }
  /** A second factor to verify (or to set up): the factor screens end the transaction. */
  | { kind: 'factor'; transaction: AuthnTransaction }
  | { kind: 'refused'; problem: SignInProblem };

/** The states of a second factor the factor screens walk a staff member through (Okta's Classic API). */
const FACTOR_STATUSES = new Set(['MFA_REQUIRED', 'MFA_ENROLL', 'MFA_ENROLL_ACTIVATE', 'MFA_CHALLENGE']);
/** Okta's "authentication failed": a wrong password, an unknown address, a paused account alike. */
// eslint-disable-next-line lingui/no-unlocalized-strings -- an error code, not words
const AUTHENTICATION_FAILED = 'E0000004';

function problemOfProvider(error: unknown): SignInProblem {
  if (error instanceof IdentityProviderUnavailableError) return 'unavailable';
  const code = (error as { errorCode?: unknown } | null)?.errorCode;
  if (code === AUTHENTICATION_FAILED) return 'wrong-password';
  // Okta's refusals carry a code; a fetch that failed (or a chunk that didn't load) carries none.
  return typeof code === 'string' ? 'failed' : 'unavailable';
}

/**
 * The password step, for a sign-in or a step-up (`email` is then the signed-in staff member's): a
 * console session at once (a directory that asks for no second factor: the API refuses it), or the
 * factor step's transaction.
 */
export async function signInWithPassword(email: string, password: string): Promise<SignInStep> {
  let client: IdentityProviderClient;
  let transaction: AuthnTransaction;
  try {
    client = await loadIdentityProvider();
    transaction = await client.signInWithCredentials({ username: email, password });
  } catch (error) {
    return { kind: 'refused', problem: problemOfProvider(error) };
  }
  if (FACTOR_STATUSES.has(transaction.status)) return { kind: 'factor', transaction };
  return finishSignIn(transaction);
}

/** The ID token of a finished sign-in, from the identity provider without a prompt (not kept by it). */
async function idTokenOf(client: IdentityProviderClient, sessionToken: string | undefined) {
  const { tokens } = await client.token.getWithoutPrompt({ sessionToken, scopes: [...IDP_SCOPES] });
  return tokens.idToken?.idToken;
}

/** A SUCCESS transaction (after the password, or after the factor step) turned into a console session. */
export async function finishSignIn(
  transaction: Pick<AuthnTransaction, 'status' | 'sessionToken'>,
): Promise<SignInStep> {
  // The factor screens leave a note for the borrower's home after a factor is set up: not a borrower's.
  dismissLandingNotice();
  if (transaction.status !== 'SUCCESS') return { kind: 'refused', problem: 'failed' };
  let idToken: string | undefined;
  try {
    idToken = await idTokenOf(await loadIdentityProvider(), transaction.sessionToken);
  } catch (error) {
    return {
      kind: 'refused',
      problem: problemOfProvider(error) === 'unavailable' ? 'unavailable' : 'failed',
    };
  }
  if (!idToken) return { kind: 'refused', problem: 'failed' };
  const result = await apiClient.call(consoleEndpoints.signIn, { body: { idToken } });
  if (!result.isError) return { kind: 'signed-in', session: result.data };
  const { code } = describeFailure(result, '');
  if (result.exceptionThrown || result.status >= 502) return { kind: 'refused', problem: 'unavailable' };
  if (result.status === 429) return { kind: 'refused', problem: 'too-many' };
  if (code === CONSOLE_ERROR_CODES.notStaff) return { kind: 'refused', problem: 'not-staff' };
  if (code === CONSOLE_ERROR_CODES.secondFactorRequired)
    return { kind: 'refused', problem: 'second-factor-required' };
  if (result.status === 401) return { kind: 'refused', problem: 'start-again' };
  return { kind: 'refused', problem: 'failed' };
}
