import * as Dialog from '@radix-ui/react-dialog';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { Suspense, lazy, useState, type FormEvent } from 'react';
import { BusyButton } from '../busy-button';
import { FormField, fieldErrorId } from '../form-field';
import { PasswordInput } from '../password-input';
import { Spinner } from '../spinner';
import { readAccessToken } from '../../lib/product-session-data';
import { confirmIdentity, renewSignIn } from '../../lib/auth/sign-in';
import { DialogOverlay } from '../dialog/dialog-overlay';
import '../dialog/dialog.css';
import './step-up-dialog.css';

// The factor screens of sign-in, fetched only when the borrower has a second factor.
const FactorStep = lazy(() =>
  import('../factors/factor-step').then((module) => ({ default: module.FactorStep })),
);

const PASSWORD_FIELD_ID = 'step-up-password';
const PASSWORD_REQUIRED = 'Enter your password.';
const NOT_CONFIRMED = 'We couldn’t confirm it’s you. Check your password and try again.';

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

/**
 * A sensitive action (signing a document, changing the sign-in email) needs a recent sign-in: the
 * borrower's password again (and their code, when they have a second factor), on the page where they
 * are. A new product token replaces the current one; nothing else moves, so the caller retries.
 */
export function StepUpDialog({
  message,
  confirmLabel,
  factorMessage,
  onConfirmed,
  onCancel,
  returnFocusId,
}: StepUpDialogProps) {
  const [email] = useState(() => readAccessToken()?.email ?? '');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const [factorTransaction, setFactorTransaction] = useState<AuthnTransaction>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setError(PASSWORD_REQUIRED);
    setError(undefined);
    setPending(true);
    try {
      const transaction = await confirmIdentity({ email, password });
      if (transaction) {
        setFactorTransaction(transaction);
        setPending(false);
      } else onConfirmed();
    } catch {
      setPending(false);
      setError(NOT_CONFIRMED);
    }
  };

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
          <Dialog.Title className="dialog__title">Confirm it&rsquo;s you</Dialog.Title>
          <Dialog.Description className="step-up__description">
            {factorTransaction ? factorMessage : message}
          </Dialog.Description>
          {factorTransaction ? (
            <Suspense fallback={<Spinner />}>
              <FactorStep
                transaction={factorTransaction}
                onSuccess={async (done) => {
                  await renewSignIn(done);
                  onConfirmed();
                }}
                onRestart={(why) => {
                  setFactorTransaction(undefined);
                  setPassword('');
                  setError(why);
                }}
                backLabel="Back to password"
              />
            </Suspense>
          ) : (
            <form className="step-up__form" onSubmit={(event) => void submit(event)} noValidate>
              <p className="step-up__who">
                Signed in as <strong>{email}</strong>
              </p>
              <FormField id={PASSWORD_FIELD_ID} label="Password" error={error}>
                <PasswordInput
                  id={PASSWORD_FIELD_ID}
                  autoComplete="current-password"
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                  readOnly={pending}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? fieldErrorId(PASSWORD_FIELD_ID) : undefined}
                />
              </FormField>
              <div className="step-up__actions">
                <BusyButton busy={pending} busyText="Confirming it’s you" className="button button--primary">
                  {confirmLabel}
                </BusyButton>
                <Dialog.Close asChild>
                  <button type="button" className="button button--secondary">
                    Cancel
                  </button>
                </Dialog.Close>
              </div>
            </form>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
