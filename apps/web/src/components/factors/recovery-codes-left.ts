import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { saveLandingNotice } from '../../lib/landing-notice';

/**
 * After a sign-in with a recovery code the provider says how many are left (the bundled provider's
 * `_embedded.recoveryCodes`, lifted onto the transaction); the home page says it until dismissed.
 */
export function noteRecoveryCodesLeft(transaction: AuthnTransaction): void {
  const lifted = transaction as AuthnTransaction & { recoveryCodes?: { remaining?: unknown } };
  const remaining = lifted.recoveryCodes?.remaining;
  if (typeof remaining === 'number') saveLandingNotice({ kind: 'recovery-codes-left', remaining });
}

/** After setting up a second step at sign-in or registration: recovery codes are offered next. */
export function offerRecoveryCodes(): void {
  saveLandingNotice({ kind: 'second-step-on' });
}
