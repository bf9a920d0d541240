import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { savePendingToast } from '../../lib/pending-toast';

/**
 * After a sign-in with a recovery code the provider says how many are left (the bundled provider's
 * `_embedded.recoveryCodes`, lifted onto the transaction); the page the borrower lands on says it.
 */
export function noteRecoveryCodesLeft(transaction: AuthnTransaction): void {
  const lifted = transaction as AuthnTransaction & { recoveryCodes?: { remaining?: unknown } };
  const remaining = lifted.recoveryCodes?.remaining;
  if (typeof remaining !== 'number') return;
  savePendingToast({
    title: 'You signed in with a recovery code',
    message:
      remaining === 0
        ? 'That was your last one. Make new recovery codes from your account page.'
        : `It won’t work again. You have ${remaining} recovery ${remaining === 1 ? 'code' : 'codes'} left.`,
    status: remaining <= 2 ? 'warning' : 'info',
  });
}
