import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { passkeysWorkHere } from '../../lib/auth/passkey-availability';
import { finishSignIn } from '../../lib/auth/sign-in';
import { WEBAUTHN, choosableFactors, type Factor } from './factor-choice';
import { WRONG_CODE, refusalOf } from './factor-errors';
import type { FactorStepActions } from './factor-step-actions';
import { noteRecoveryCodesLeft, offerRecoveryCodes } from './recovery-codes-left';
import { stateTokenOf } from './webauthn-step';

/** The factor step's state: the identity provider's transaction, and the borrower's way through it. */
export interface FactorStepState {
  transaction: AuthnTransaction;
  /** The transaction's factors, as the provider lists them. */
  factors: Factor[];
  /** The ways of MFA_REQUIRED these screens can verify, each going with the current state token. */
  choosable: Factor[];
  /** The way chosen in MFA_REQUIRED, when there is more than one (null: the choice shows). */
  chosen: string | null;
  choose(factorType: string | null): void;
  /** The token a passkey's challenge moved the transaction to; a code then goes with it. */
  stateToken: string | undefined;
  setStateToken(token: string): void;
  /** The authenticator app's code being typed. */
  code: string;
  setCode(code: string): void;
  actions: FactorStepActions;
  /** The heading of the screen shown: each new screen is announced by moving the focus to it. */
  heading: RefObject<HTMLHeadingElement | null>;
  /** Back to the password form: the transaction is cancelled. */
  cancel(): void;
}

/**
 * The second-factor step as a state machine over Okta's transaction: each action moves it on (a new
 * screen), finishes the sign-in (SUCCESS), shows a refusal under the field, or goes back to the
 * password form with what to tell the borrower.
 */
export function useFactorStep(
  first: AuthnTransaction,
  onRestart: (message?: string) => void,
  onSuccess: (transaction: AuthnTransaction) => Promise<void>,
): FactorStepState {
  const { i18n } = useLingui();
  const [transaction, setTransaction] = useState(first);
  const [code, setCode] = useState('');
  // Kept as the message itself: it is said in the language the borrower has at the time.
  const [error, setError] = useState<MessageDescriptor>();
  const [pending, setPending] = useState(false);
  // A passkey first, where there is one.
  const [chosen, setChosen] = useState<string | null>(() =>
    passkeysWorkHere() && ((first.factors ?? []) as Factor[]).some((f) => f.factorType === WEBAUTHN)
      ? WEBAUTHN
      : null,
  );
  const heading = useRef<HTMLHeadingElement>(null);
  const [stateToken, setStateToken] = useState(() => stateTokenOf(first));

  useEffect(() => heading.current?.focus(), [transaction.status, chosen]);

  const factors = (transaction.factors ?? []) as Factor[];
  // The state token moves on when a passkey's challenge is asked for: every way then goes with it.
  const withToken = (factor: Factor): Factor => ({
    ...factor,
    verify: factor.verify && ((options?: object) => factor.verify!({ ...options, stateToken })),
  });
  const choosable = choosableFactors(factors, passkeysWorkHere()).map(withToken);

  async function step(
    action: () => Promise<AuthnTransaction>,
    wrongCode: MessageDescriptor = WRONG_CODE,
  ): Promise<boolean> {
    setPending(true);
    setError(undefined);
    try {
      const next = await action();
      if (next.status === 'SUCCESS') {
        if (onSuccess === finishSignIn) noteRecoveryCodesLeft(next);
        // A second step was just set up: recovery codes are offered on the page the borrower lands on.
        if (transaction.status === 'MFA_ENROLL_ACTIVATE') offerRecoveryCodes();
        await onSuccess(next); // by default the page leaves for the identity provider
        return true;
      }
      setCode('');
      if (next.status === 'MFA_REQUIRED') setChosen(null);
      setStateToken(stateTokenOf(next));
      setTransaction(next);
      setPending(false);
      return true;
    } catch (failure) {
      setPending(false);
      const refusal = refusalOf(failure, wrongCode);
      if (refusal.kind === 'field') setError(refusal.message);
      else onRestart(i18n._(refusal.message));
      return false;
    }
  }

  return {
    transaction,
    factors,
    choosable,
    chosen,
    choose: (factorType) => {
      setError(undefined);
      setChosen(factorType);
    },
    stateToken,
    setStateToken,
    code,
    setCode,
    actions: { pending, error: error && i18n._(error), fail: setError, step },
    heading,
    cancel: () => {
      void transaction.cancel?.().catch(() => undefined);
      onRestart();
    },
  };
}
