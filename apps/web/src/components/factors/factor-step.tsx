import { useLingui } from '@lingui/react/macro';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import type { ReactNode } from 'react';
import { finishSignIn } from '../../lib/auth/sign-in';
import { AuthenticatorActivation } from './authenticator-activation';
import { AuthenticatorCodeStep } from './authenticator-code-step';
import { EmailCodeChallenge, EmailCodeRequest } from './email-code-step';
import { EnrolChoice } from './enrol-choice';
import { AnotherWay, EMAIL, FactorChoice, RECOVERY_CODE, TOTP, WEBAUTHN } from './factor-choice';
import { FactorScreen } from './factor-screen';
import { RecoveryCodeForm } from './recovery-code-step';
import { UnsupportedFactor } from './unsupported-factor';
import { useFactorStep } from './use-factor-step';
import { WebauthnStep } from './webauthn-step';
import './factors.css';

interface FactorStepProps {
  transaction: AuthnTransaction;
  /** Back to the password form, with what to tell the borrower (nothing after a cancel). */
  onRestart(message?: string): void;
  /** What a SUCCESS leads to; by default the rest of the sign-in (the page leaves for the provider). */
  onSuccess?: (transaction: AuthnTransaction) => Promise<void>;
  /** The words of the way back to the password form. */
  backLabel?: string;
}

/** The second-factor screens of sign-in: one per Okta transaction state (use-factor-step.ts moves it). */
export function FactorStep({
  transaction: first,
  onRestart,
  onSuccess = finishSignIn,
  backLabel,
}: FactorStepProps) {
  const { t } = useLingui();
  const state = useFactorStep(first, onRestart, onSuccess);
  const { transaction, factors, choosable, actions } = state;
  const { pending } = actions;
  const codeForm = { code: state.code, onCode: state.setCode, actions };

  // On the sign-in screens (not when confirming it's you, signed in already), whose account it is.
  const login = (transaction.user?.profile as { login?: unknown } | undefined)?.login;
  const account = onSuccess === finishSignIn && typeof login === 'string' ? login : undefined;
  const screen = (title: string, body: ReactNode) => (
    <FactorScreen
      title={title}
      heading={state.heading}
      account={account}
      backLabel={backLabel ?? t`Back to sign in`}
      onBack={state.cancel}
    >
      {body}
    </FactorScreen>
  );

  if (transaction.status === 'MFA_REQUIRED' && choosable.length > 0) {
    const factor =
      choosable.length === 1 ? choosable[0] : choosable.find((f) => f.factorType === state.chosen);
    if (!factor)
      return screen(
        t`Confirm it’s you`,
        <FactorChoice
          factors={choosable}
          disabled={pending}
          onChoose={(way) => {
            // An emailed code is sent at once: that is what the borrower chose.
            if (way.factorType === EMAIL && way.verify) void actions.step(way.verify);
            else state.choose(way.factorType ?? null);
          }}
        />,
      );
    const another = choosable.length > 1 && (
      <AnotherWay disabled={pending} onClick={() => state.choose(null)} />
    );
    const verify = factor.verify!;
    if (factor.factorType === WEBAUTHN)
      return screen(
        t`Use your passkey`,
        <>
          <WebauthnStep
            verify={verify}
            stateToken={state.stateToken}
            onStateToken={state.setStateToken}
            onSuccess={onSuccess}
            onRestart={onRestart}
          />
          {another}
        </>,
      );
    if (factor.factorType === EMAIL)
      return screen(
        t`Get a code by email`,
        <>
          <EmailCodeRequest factor={factor} actions={actions} />
          {another}
        </>,
      );
    if (factor.factorType === RECOVERY_CODE)
      return screen(
        t`Use a recovery code`,
        <>
          <RecoveryCodeForm factor={factor} actions={actions} />
          {another}
        </>,
      );
    return screen(
      t`Enter your code`,
      <>
        <AuthenticatorCodeStep verify={verify} {...codeForm} />
        {another}
      </>,
    );
  }

  if (
    transaction.status === 'MFA_CHALLENGE' &&
    transaction.factor?.factorType === EMAIL &&
    transaction.verify
  ) {
    const prev = transaction.prev;
    return screen(
      t`Check your email`,
      <>
        <EmailCodeChallenge transaction={transaction} actions={actions} send={transaction.verify} />
        {prev && <AnotherWay disabled={pending} onClick={() => void actions.step(() => prev())} />}
      </>,
    );
  }

  const totp = factors.find((factor) => factor.factorType === TOTP);
  if (transaction.status === 'MFA_ENROLL' && totp?.enroll) {
    const enroll = totp.enroll;
    const emailEnrol = factors.find((factor) => factor.factorType === EMAIL)?.enroll;
    return screen(
      t`Set up two-step verification`,
      <EnrolChoice
        enrollApp={() => enroll()}
        enrollEmail={emailEnrol && (() => emailEnrol())}
        actions={actions}
      />,
    );
  }

  if (
    transaction.status === 'MFA_ENROLL_ACTIVATE' &&
    transaction.factor?.factorType === EMAIL &&
    transaction.activate
  ) {
    return screen(
      t`Check your email`,
      <EmailCodeChallenge transaction={transaction} actions={actions} send={transaction.activate} />,
    );
  }

  // okta-auth-js lifts a factor's _embedded into it: the activation is factor.activation.
  const activation = transaction.factor?.activation as { sharedSecret?: string } | undefined;
  if (
    transaction.status === 'MFA_ENROLL_ACTIVATE' &&
    transaction.factor?.factorType === TOTP &&
    activation?.sharedSecret &&
    transaction.activate
  ) {
    return screen(
      t`Scan this code with your authenticator app`,
      <AuthenticatorActivation
        secret={activation.sharedSecret}
        accountName={typeof login === 'string' ? login : ''}
        activate={transaction.activate}
        {...codeForm}
      />,
    );
  }

  // A hosted org may ask for a factor these screens do not handle: name it.
  const asked = [
    ...new Set(
      [transaction.factor?.factorType, ...factors.map((factor) => factor.factorType)].filter(
        (type): type is string => typeof type === 'string',
      ),
    ),
  ];
  return screen(
    t`We can’t finish signing you in here`,
    <UnsupportedFactor asked={asked.join(', ') || transaction.status} />,
  );
}
