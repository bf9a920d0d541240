import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';
import { passkeysWorkHere } from '../../lib/auth/passkey-availability';
import type { PasskeyOutcome } from '../../lib/auth/passkey-sign-in';
import { PasskeyButton } from './passkey-button';

// "Sign in with a passkey" and the e-mail field's passkey suggestions. Nothing of WebAuthn loads
// until the borrower acts: pressing the button, or focusing the e-mail field where the browser
// offers passkeys among its suggestions (conditional mediation).

const loadFlow = () => import('../../lib/auth/passkey-sign-in');

const TRY_AGAIN = msg`We couldn’t sign you in with your passkey. Try again, or sign in with your password.`;
const MESSAGES: Record<Exclude<PasskeyOutcome, 'cancelled'>, MessageDescriptor> = {
  unknown: msg`We don’t recognize that passkey. It may have been removed from your account. Sign in with your password instead.`,
  failed: TRY_AGAIN,
  unavailable: TRY_AGAIN,
};

/**
 * The passkey ways in of the sign-in form: `emailInput` goes on the e-mail field (its autocomplete
 * token and the focus that starts the suggestions), `button` under the form. `onFailure` gets what to
 * tell the borrower; `busy` is true while the page is on its way after a passkey.
 */
export function usePasskeySignIn(onFailure: (message: string | undefined) => void) {
  const { i18n } = useLingui();
  const [available] = useState(passkeysWorkHere);
  const [busy, setBusy] = useState(false);
  const autofillStarted = useRef(false);
  // False once the browser could not offer passkeys among the e-mail field's suggestions.
  const [suggested, setSuggested] = useState(true);

  async function run(autofill: boolean) {
    if (!autofill) {
      onFailure(undefined);
      setBusy(true);
    }
    let outcome: PasskeyOutcome | undefined;
    try {
      const { signInWithPasskey } = await loadFlow();
      outcome = await signInWithPasskey({ autofill });
    } catch {
      outcome = 'failed';
    }
    // undefined: signed in, the page is leaving. A cancelled prompt says nothing, and neither do the
    // e-mail field's suggestions when they could not be offered: the borrower asked for nothing yet.
    if (outcome === undefined) return;
    setBusy(false);
    if (autofill && outcome === 'unavailable') {
      setSuggested(false);
      return;
    }
    if (outcome === 'cancelled') return;
    onFailure(i18n._(MESSAGES[outcome]));
  }

  async function startAutofill() {
    if (autofillStarted.current) return;
    autofillStarted.current = true;
    const conditional = await window.PublicKeyCredential.isConditionalMediationAvailable?.().catch(
      () => false,
    );
    if (conditional) void run(true);
  }

  if (!available) return { emailInput: {}, button: null, busy: false };
  return {
    emailInput: {
      autoComplete: suggested ? 'username webauthn' : 'username',
      onFocus: () => void startAutofill(),
    },
    busy,
    button: <PasskeyButton busy={busy} onClick={() => void run(false)} />,
  };
}
