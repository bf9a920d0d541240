import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import * as Dialog from '@radix-ui/react-dialog';
import type { StepUpWays } from '@customer-core/contracts';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { Suspense, lazy, useEffect, useState, type FormEvent } from 'react';
import { BusyButton } from '../busy-button';
import { FormField, fieldErrorId } from '../form-field';
import { PasswordInput } from '../password-input';
import { Spinner } from '../spinner';
import { readAccessToken } from '../../lib/product-session-data';
import { passkeysWorkHere } from '../../lib/auth/passkey-availability';
import type { PasskeyStepUpOutcome } from '../../lib/auth/passkey-sign-in';
import { confirmIdentity, renewSignIn } from '../../lib/auth/sign-in';
import { DialogOverlay } from '../dialog/dialog-overlay';
import { loadStepUpWays, sendStepUpCode } from '../../lib/auth/step-up';
import { EmailCodeWay } from './email-code-way';
import '../dialog/dialog.css';
import './step-up-dialog.css';

// The factor screens of sign-in, fetched only when the borrower has a second factor.
const FactorStep = lazy(() =>
  import('../factors/factor-step').then((module) => ({ default: module.FactorStep })),
);
// WebAuthn's code, fetched only when the borrower reaches for their passkey.
const loadPasskeyFlow = () => import('../../lib/auth/passkey-sign-in');

const PASSWORD_FIELD_ID = 'step-up-password';
const OTHER_WAYS_ID = 'step-up-other-ways';
const PASSWORD_REQUIRED = msg`Enter your password.`;
const NOT_CONFIRMED = msg`We couldn’t confirm it’s you. Check your password and try again.`;
const PASSKEY_FAILED = msg`We couldn’t confirm it’s you with your passkey. Try again, or use another way.`;
const PASSKEY_UNKNOWN = msg`We don’t recognize that passkey. It may have been removed from your account. Use another way.`;
const PASSKEY_OTHER_ACCOUNT = msg`That passkey is for another account. Use the passkey for this one.`;

interface StepUpDialogProps {
  /** The API's reason, shown as the dialog's description. */
  message: string;
  /** The submit button, naming what follows: "Confirm and sign". */
  confirmLabel: string;
  /** Above the second factor's step: "One more step before you sign." */
  factorMessage: string;
  /** The borrower signed in again: the product token is new; the caller retries what was refused. */
  onConfirmed(): void;
  /** Escape, the close button or "Cancel": nothing changes, the caller's form keeps what was typed. */
  onCancel(): void;
  /** The id of what takes the focus back on closing (the sign button was disabled when this opened). */
  returnFocusId: string;
}

/** Where the dialog is: the password (and the other ways beside it), or the code e-mailed just now. */
type Step = { kind: 'password' } | { kind: 'email-code'; sentTo: string };

/**
 * A sensitive action (signing a document, changing the sign-in email) needs a recent sign-in, on the
 * page where the borrower is, by any way they have: their password, a passkey, or a code e-mailed to
 * their sign-in address (for a borrower who signs in by link and does not know their password); then
 * their second factor, when they have one and the way was not a passkey. Only the ways they have are
 * offered, the password always. A new product token replaces the current one; nothing else moves, so
 * the caller retries.
 */
export function StepUpDialog({
  message,
  confirmLabel,
  factorMessage,
  onConfirmed,
  onCancel,
  returnFocusId,
}: StepUpDialogProps) {
  const { t, i18n } = useLingui();
  const [email] = useState(() => readAccessToken()?.email ?? '');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const [factorTransaction, setFactorTransaction] = useState<AuthnTransaction>();
  const [step, setStep] = useState<Step>({ kind: 'password' });
  const [ways, setWays] = useState<StepUpWays>();
  // What the other ways had to say (a passkey refused, a code not sent), under their buttons.
  const [otherError, setOtherError] = useState<string>();
  const [otherPending, setOtherPending] = useState<'passkey' | 'email-code'>();

  useEffect(() => {
    let current = true;
    void loadStepUpWays().then((loaded) => current && setWays(loaded));
    return () => {
      current = false;
    };
  }, []);

  const passkeyOffered = ways?.passkey === true && passkeysWorkHere();
  const codeOffered = ways?.emailCode === true;
  const busy = pending || otherPending !== undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setError(i18n._(PASSWORD_REQUIRED));
    setError(undefined);
    setOtherError(undefined);
    setPending(true);
    try {
      const transaction = await confirmIdentity({ email, password });
      if (transaction) {
        setFactorTransaction(transaction);
        setPending(false);
      } else onConfirmed();
    } catch {
      setPending(false);
      setError(i18n._(NOT_CONFIRMED));
    }
  };

  const confirmByPasskey = async () => {
    setOtherError(undefined);
    setOtherPending('passkey');
    let outcome: PasskeyStepUpOutcome;
    try {
      outcome = await (await loadPasskeyFlow()).confirmWithPasskey(email);
    } catch {
      outcome = 'failed';
    }
    setOtherPending(undefined);
    if (outcome === undefined) return onConfirmed();
    // A prompt the borrower closed says nothing: they chose not to, for now.
    if (outcome === 'cancelled') return;
    setOtherError(
      i18n._(
        outcome === 'unknown'
          ? PASSKEY_UNKNOWN
          : outcome === 'another_account'
            ? PASSKEY_OTHER_ACCOUNT
            : PASSKEY_FAILED,
      ),
    );
  };

  const emailCode = async () => {
    setOtherError(undefined);
    setOtherPending('email-code');
    const sent = await sendStepUpCode();
    setOtherPending(undefined);
    if (!sent.ok) return setOtherError(sent.message);
    setError(undefined);
    setStep({ kind: 'email-code', sentTo: sent.sentTo });
  };

  /** Back to the password and the other ways, with what to tell the borrower. */
  const restart = (why?: string) => {
    setFactorTransaction(undefined);
    setStep({ kind: 'password' });
    setPassword('');
    setError(why);
  };

  const cancelButton = (
    <Dialog.Close asChild>
      <button type="button" className="button button--secondary">
        <Trans>Cancel</Trans>
      </button>
    </Dialog.Close>
  );

  let body;
  if (factorTransaction)
    body = (
      <Suspense fallback={<Spinner />}>
        <FactorStep
          transaction={factorTransaction}
          onSuccess={async (done) => {
            await renewSignIn(done);
            onConfirmed();
          }}
          onRestart={restart}
          backLabel={step.kind === 'email-code' ? t`Use another way` : t`Back to password`}
        />
      </Suspense>
    );
  else if (step.kind === 'email-code')
    body = (
      <EmailCodeWay
        sentTo={step.sentTo}
        confirmLabel={confirmLabel}
        onConfirmed={onConfirmed}
        onFactor={setFactorTransaction}
        onBack={() => restart()}
        cancel={cancelButton}
      />
    );
  else
    body = (
      <>
        <form className="step-up__form" onSubmit={(event) => void submit(event)} noValidate>
          <p className="step-up__who">
            <Trans>
              Signed in as <strong>{email}</strong>
            </Trans>
          </p>
          <FormField id={PASSWORD_FIELD_ID} label={t`Password`} error={error}>
            <PasswordInput
              id={PASSWORD_FIELD_ID}
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              readOnly={busy}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? fieldErrorId(PASSWORD_FIELD_ID) : undefined}
            />
          </FormField>
          <div className="step-up__actions">
            <BusyButton busy={pending} busyText={t`Confirming it’s you`} className="button button--primary">
              {confirmLabel}
            </BusyButton>
            {cancelButton}
          </div>
        </form>
        {(passkeyOffered || codeOffered) && (
          <section
            className="step-up__other"
            aria-labelledby={OTHER_WAYS_ID}
            data-testid="step-up-other-ways"
          >
            <h3 id={OTHER_WAYS_ID} className="step-up__other-title">
              <Trans>Other ways to confirm it’s you</Trans>
            </h3>
            <div className="step-up__actions">
              {passkeyOffered && (
                <BusyButton
                  type="button"
                  busy={otherPending === 'passkey'}
                  busyText={t`Waiting for your passkey…`}
                  className="button button--secondary"
                  onClick={() => void confirmByPasskey()}
                  disabled={busy}
                >
                  <Trans>Use a passkey</Trans>
                </BusyButton>
              )}
              {codeOffered && (
                <BusyButton
                  type="button"
                  busy={otherPending === 'email-code'}
                  busyText={t`Sending your code…`}
                  className="button button--secondary"
                  onClick={() => void emailCode()}
                  disabled={busy}
                >
                  <Trans>Email me a code</Trans>
                </BusyButton>
              )}
            </div>
            <p className="step-up__other-error" role="alert">
              {otherError ?? ''}
            </p>
          </section>
        )}
      </>
    );

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onCancel()}>
      <Dialog.Portal>
        <DialogOverlay />
        <Dialog.Content
          className="dialog"
          data-testid="step-up-dialog"
          onCloseAutoFocus={(event) => {
            const target = document.getElementById(returnFocusId);
            if (!target) return;
            event.preventDefault();
            target.focus();
          }}
        >
          <Dialog.Title className="dialog__title">
            <Trans>Confirm it’s you</Trans>
          </Dialog.Title>
          <Dialog.Description className="step-up__description">
            {factorTransaction
              ? factorMessage
              : step.kind === 'email-code'
                ? t`Enter the code we emailed you.`
                : message}
          </Dialog.Description>
          {body}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
