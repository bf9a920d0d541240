import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { BusyButton } from '../busy-button';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Spinner } from '../spinner';
import { SupportPhone } from '../support-phone';
import { finishSignIn } from '../../lib/auth/sign-in';
import { CODE_LENGTH, CodeField } from './code-field';
import {
  CODE_REQUIRED,
  LOCKED,
  STEP_EXPIRED,
  TOO_MANY_CODES,
  WRONG_CODE,
  errorCodeOf,
} from './factor-errors';
import { AuthenticatorSetup } from './authenticator-setup';
import {
  AnotherWay,
  EMAIL,
  FactorChoice,
  RECOVERY_CODE,
  TOTP,
  WEBAUTHN,
  choosableFactors,
  type Factor,
} from './factor-choice';
import type { FactorStepActions } from './factor-step-actions';
import { EmailCodeChallenge, EmailCodeRequest } from './email-code-step';
import { RecoveryCodeForm } from './recovery-code-step';
import { noteRecoveryCodesLeft } from './recovery-codes-left';
import { passkeysWorkHere } from '../../lib/auth/passkey-availability';
import { stateTokenOf, WebauthnStep } from './webauthn-step';
import './factors.css';

const CODE_FIELD_ID = 'sign-in-factor-code';

interface FactorStepProps {
  transaction: AuthnTransaction;
  /** Back to the password form, with what to tell the borrower (nothing after a cancel). */
  onRestart(message?: string): void;
  /** What a SUCCESS leads to; by default the rest of the sign-in (the page leaves for the provider). */
  onSuccess?: (transaction: AuthnTransaction) => Promise<void>;
  /** The words of the way back to the password form. */
  backLabel?: string;
}

/** The second-factor screens of sign-in: one per Okta transaction state. */
export function FactorStep({
  transaction: first,
  onRestart,
  onSuccess = finishSignIn,
  backLabel = 'Back to sign in',
}: FactorStepProps) {
  const [transaction, setTransaction] = useState(first);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  /** The way chosen in MFA_REQUIRED, when there is more than one: a passkey first, where there is one. */
  const [chosen, setChosen] = useState<string | null>(() =>
    passkeysWorkHere() && ((first.factors ?? []) as Factor[]).some((f) => f.factorType === WEBAUTHN)
      ? WEBAUTHN
      : null,
  );
  const heading = useRef<HTMLHeadingElement>(null);
  // The token a passkey's challenge moved the transaction to; a code then goes with it.
  const [stateToken, setStateToken] = useState(() => stateTokenOf(first));

  // Each new screen is announced by moving focus to its heading.
  useEffect(() => heading.current?.focus(), [transaction.status, chosen]);

  const factors = (transaction.factors ?? []) as Factor[];
  const totp = factors.find((factor) => factor.factorType === TOTP);
  // The state token moves on when a passkey's challenge is asked for: every way then goes with it.
  const withToken = (factor: Factor): Factor => ({
    ...factor,
    verify: factor.verify && ((options?: object) => factor.verify!({ ...options, stateToken })),
  });
  const choosable = choosableFactors(factors, passkeysWorkHere()).map(withToken);

  async function step(action: () => Promise<AuthnTransaction>, wrongCode = WRONG_CODE): Promise<boolean> {
    setPending(true);
    setError(undefined);
    try {
      const next = await action();
      if (next.status === 'SUCCESS') {
        if (onSuccess === finishSignIn) noteRecoveryCodesLeft(next);
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
      const errorCode = errorCodeOf(failure);
      if (errorCode === 'E0000068') setError(wrongCode);
      else if (errorCode === 'E0000047') setError(TOO_MANY_CODES);
      else if (errorCode === 'E0000011') onRestart(STEP_EXPIRED);
      else onRestart(LOCKED);
      return false;
    }
  }
  const actions: FactorStepActions = { pending, error, fail: setError, step };

  const cancel = () => {
    void transaction.cancel?.().catch(() => undefined);
    onRestart();
  };

  const submitCode = (send: (passCode: string) => Promise<AuthnTransaction>) => (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== CODE_LENGTH) {
      setError(CODE_REQUIRED);
      return;
    }
    void step(() => send(code));
  };

  const screen = (title: string, body: ReactNode) => (
    <section className="factor-step" aria-labelledby="factor-step-title" data-testid="factor-step">
      <h2 id="factor-step-title" ref={heading} tabIndex={-1}>
        {title}
      </h2>
      {body}
      <button type="button" className="button button--secondary button--block" onClick={cancel}>
        {backLabel}
      </button>
    </section>
  );

  const codeForm = (
    intro: ReactNode,
    submit: string,
    send: (passCode: string) => Promise<AuthnTransaction>,
  ) => (
    <form className="factor-step__form" onSubmit={submitCode(send)} noValidate>
      {intro}
      <CodeField id={CODE_FIELD_ID} value={code} onChange={setCode} error={error} disabled={pending} />
      <BusyButton busy={pending} busyText="Checking your code…">
        {submit}
      </BusyButton>
    </form>
  );

  if (transaction.status === 'MFA_REQUIRED' && choosable.length > 0) {
    const factor = choosable.length === 1 ? choosable[0] : choosable.find((f) => f.factorType === chosen);
    if (!factor)
      return screen(
        'Confirm it’s you',
        <FactorChoice
          factors={choosable}
          disabled={pending}
          onChoose={(way) => {
            setError(undefined);
            // An emailed code is sent at once: that is what the borrower chose.
            if (way.factorType === EMAIL && way.verify) void step(way.verify);
            else setChosen(way.factorType ?? null);
          }}
        />,
      );
    const another = choosable.length > 1 && (
      <AnotherWay disabled={pending} onClick={() => (setError(undefined), setChosen(null))} />
    );
    const verify = factor.verify!;
    if (factor.factorType === WEBAUTHN)
      return screen(
        'Use your passkey',
        <>
          <WebauthnStep
            verify={verify}
            stateToken={stateToken}
            onStateToken={setStateToken}
            onSuccess={onSuccess}
            onRestart={onRestart}
          />
          {another}
        </>,
      );
    if (factor.factorType === EMAIL)
      return screen(
        'Get a code by email',
        <>
          <EmailCodeRequest factor={factor} actions={actions} />
          {another}
        </>,
      );
    if (factor.factorType === RECOVERY_CODE)
      return screen(
        'Use a recovery code',
        <>
          <RecoveryCodeForm factor={factor} actions={actions} />
          {another}
        </>,
      );
    return screen(
      'Enter your code',
      <>
        {codeForm(
          <p className="factor-step__intro">
            Open your authenticator app and enter the 6&#8209;digit code it shows.
          </p>,
          'Verify',
          (passCode) => verify({ passCode }),
        )}
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
      'Check your email',
      <>
        <EmailCodeChallenge transaction={transaction} actions={actions} send={transaction.verify} />
        {prev && <AnotherWay disabled={pending} onClick={() => void step(() => prev())} />}
      </>,
    );
  }

  if (transaction.status === 'MFA_ENROLL' && totp?.enroll) {
    const enroll = totp.enroll;
    const emailEnrol = factors.find((factor) => factor.factorType === EMAIL);
    return screen(
      'Set up two-step verification',
      <>
        <p className="factor-step__intro">
          For your security, add an authenticator app to your account. You&rsquo;ll enter a code from it each
          time you sign in.
        </p>
        <button
          type="button"
          className="button button--primary button--block"
          disabled={pending}
          onClick={() => void step(() => enroll())}
        >
          {pending && <Spinner />}
          Set up an authenticator app
        </button>
        {emailEnrol?.enroll && (
          <button
            type="button"
            className="factor-step__link"
            disabled={pending}
            onClick={() => void step(() => emailEnrol.enroll!())}
          >
            Get codes by email instead
          </button>
        )}
      </>,
    );
  }

  if (
    transaction.status === 'MFA_ENROLL_ACTIVATE' &&
    transaction.factor?.factorType === EMAIL &&
    transaction.activate
  ) {
    return screen(
      'Check your email',
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
    const activate = transaction.activate;
    const login = String((transaction.user?.profile as { login?: string } | undefined)?.login ?? '');
    return screen(
      'Scan this code with your authenticator app',
      <>
        <AuthenticatorSetup secret={activation.sharedSecret} accountName={login} />
        {codeForm(
          <p className="factor-step__intro">Then enter the 6&#8209;digit code your app shows.</p>,
          'Confirm',
          (passCode) => activate({ passCode }),
        )}
      </>,
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
    'We can’t finish signing you in here',
    <p className="factor-step__intro" data-testid="factor-unsupported">
      Your sign-in asks for a kind of verification this portal doesn&rsquo;t support (
      {asked.join(', ') || transaction.status}). Call us at <SupportPhone /> and we&rsquo;ll help you sign in.
    </p>,
  );
}
