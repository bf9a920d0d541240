import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { SignInProblem } from './staff-sign-in';

/** What the sign-in screen (and the "Confirm it's you" dialog) says of each problem. */
export const SIGN_IN_PROBLEMS: Record<SignInProblem, MessageDescriptor> = {
  'wrong-password': msg`That email address and password don’t match a staff account, or the account is locked for now. Check them and try again.`,
  'not-staff': msg`This account isn’t a staff account, so it can’t open the staff console. Borrowers sign in on the portal’s sign-in page.`,
  'second-factor-required': msg`Staff must sign in with a second factor. Sign in again and confirm it’s you with your authenticator app or an emailed code.`,
  'start-again': msg`Your sign-in couldn’t be completed. Please sign in again.`,
  unavailable: msg`Sign-in is unavailable right now: we can’t reach the identity provider or the server. Try again in a few minutes.`,
  'too-many': msg`Too many attempts in a short time. Wait a minute, then try again.`,
  failed: msg`We couldn’t sign you in just now. Try again in a few minutes.`,
};
