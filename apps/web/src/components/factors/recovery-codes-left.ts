import { plural, t } from '@lingui/core/macro';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { saveLandingNotice } from '../../lib/landing-notice';

/**
 * After a sign-in with a recovery code the provider says how many are left (the bundled provider's
 * `_embedded.recoveryCodes`, lifted onto the transaction); the home page says it until dismissed.
 */
export function noteRecoveryCodesLeft(transaction: AuthnTransaction): void {
  const lifted = transaction as AuthnTransaction & { recoveryCodes?: { remaining?: unknown } };
  const remaining = lifted.recoveryCodes?.remaining;
  if (typeof remaining !== 'number') return;
  // Said in the language of this sign-in (the home page shows the notice as it was saved).
  saveLandingNotice(
    remaining === 0
      ? {
          tone: 'warning',
          text: t`You signed in with your last recovery code. Make new ones, so you can still sign in if you lose your phone.`,
          offer: 'recovery-codes',
        }
      : {
          tone: remaining <= 2 ? 'warning' : 'info',
          text: plural(remaining, {
            one: 'You signed in with a recovery code. It won’t work again: you have # recovery code left.',
            other: 'You signed in with a recovery code. It won’t work again: you have # recovery codes left.',
          }),
        },
  );
}

/** After setting up a second step at sign-in or registration: recovery codes are offered next. */
export function offerRecoveryCodes(): void {
  saveLandingNotice({
    tone: 'info',
    text: t`Two-step verification is on. Make recovery codes too, so you can still sign in if you lose your phone.`,
    offer: 'recovery-codes',
  });
}
