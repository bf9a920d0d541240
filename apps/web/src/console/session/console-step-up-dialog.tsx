import { Trans, useLingui } from '@lingui/react/macro';
import * as Dialog from '@radix-ui/react-dialog';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { useState, type FormEvent } from 'react';
import { BusyButton } from '../../components/busy-button';
import { FactorStep } from '../../components/factors/factor-step';
import { FormField, fieldErrorId } from '../../components/form-field';
import { PasswordInput } from '../../components/password-input';
import '../../components/dialog/dialog.css';
import { useConsoleSession, useStaff } from './console-session-context';
import { SIGN_IN_PROBLEMS } from './sign-in-problems';
import { finishSignIn, signInWithPassword, type SignInStep } from './staff-sign-in';

const PASSWORD_ID = 'console-step-up-password';

interface ConsoleStepUpDialogProps {
  /** The console holds a token of the new sign-in: the caller makes its call again. */
  onConfirmed(): void;
  /** Escape, Cancel or the way out of the factor step: nothing was done. */
  onCancel(): void;
}

/**
 * A destructive action needs a sign-in of the last few minutes: the staff member's password again,
 * then their second factor, exchanged for a new console token that replaces the one held. Opened
 * above the action's own dialog, which keeps what was typed.
 */
export function ConsoleStepUpDialog({ onConfirmed, onCancel }: ConsoleStepUpDialogProps) {
  const { t, i18n } = useLingui();
  const { email } = useStaff();
  const { begin, end } = useConsoleSession();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const [factor, setFactor] = useState<AuthnTransaction>();

  /** A step's outcome: confirmed, on to the factor step, or back to the password with why. */
  const settle = (step: SignInStep) => {
    if (step.kind === 'signed-in') {
      begin(step.session);
      onConfirmed();
      return;
    }
    if (step.kind === 'factor') {
      setFactor(step.transaction);
      setPending(false);
      return;
    }
    // No longer staff: the console session is over too (the sign-in screen says so).
    if (step.problem === 'not-staff') {
      onCancel();
      return end('refused');
    }
    setFactor(undefined);
    setPending(false);
    setPassword('');
    setError(i18n._(SIGN_IN_PROBLEMS[step.problem]));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setError(t`Enter your password.`);
    setError(undefined);
    setPending(true);
    settle(await signInWithPassword(email, password));
  };

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onCancel()}>
      <Dialog.Portal>
        {/* Above the action's dialog, which it dims too. */}
        <div className="dialog__overlay console-dialog__overlay--top" aria-hidden="true" />
        <Dialog.Content className="dialog console-dialog console-dialog--top" data-testid="console-step-up">
          <Dialog.Title className="dialog__title">
            <Trans>Confirm it’s you</Trans>
          </Dialog.Title>
          <Dialog.Description className="console-dialog__description">
            {factor ? (
              <Trans>One more step: your second factor.</Trans>
            ) : (
              <Trans>
                This action needs a recent sign-in. Enter your password, then confirm with your second factor.
              </Trans>
            )}
          </Dialog.Description>
          {factor ? (
            <FactorStep
              transaction={factor}
              onSuccess={async (done) => settle(await finishSignIn(done))}
              onRestart={(why) => {
                setFactor(undefined);
                setPassword('');
                setError(why);
              }}
              backLabel={t`Back to password`}
            />
          ) : (
            <form className="console-form" onSubmit={(event) => void submit(event)} noValidate>
              <p className="console-dialog__description">
                <Trans>
                  Signed in as <strong>{email}</strong>
                </Trans>
              </p>
              <FormField id={PASSWORD_ID} label={t`Password`} error={error}>
                <PasswordInput
                  id={PASSWORD_ID}
                  autoComplete="current-password"
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                  readOnly={pending}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? fieldErrorId(PASSWORD_ID) : undefined}
                />
              </FormField>
              <div className="console-actions">
                <BusyButton
                  busy={pending}
                  busyText={t`Confirming it’s you`}
                  className="button button--primary"
                >
                  <Trans>Confirm</Trans>
                </BusyButton>
                <Dialog.Close asChild>
                  <button type="button" className="button button--secondary">
                    <Trans>Cancel</Trans>
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
