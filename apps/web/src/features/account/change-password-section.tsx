import { useEffect, useRef, useState } from 'react';
import { Banner } from '../../components/banner';
import { FormField, fieldErrorId } from '../../components/form-field';
import { PasswordInput } from '../../components/password-input';
import { PasswordSetForm, type PasswordSetOutcome } from '../../components/password-set/password-set-form';
import { changePassword } from './account-api';

const CURRENT_ID = 'change-password-current';
const CURRENT_REQUIRED = 'Enter your current password.';

const changedNotice = (ended: number) =>
  ended === 0
    ? 'Your password is changed.'
    : ended === 1
      ? 'Your password is changed, and your other device is signed out.'
      : `Your password is changed, and your ${ended} other devices are signed out.`;

/**
 * Change password: the current one (the server checks it, which is also the proof that the borrower is
 * at the keyboard now), a new one with the reset screen's rules, and whether to sign out elsewhere.
 */
export function ChangePasswordSection({ onChanged }: { onChanged: () => void }) {
  const [currentPassword, setCurrentPassword] = useState('');
  const [currentError, setCurrentError] = useState<string | null>(null);
  const [signOutOthers, setSignOutOthers] = useState(true);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // A fresh form after a change: the new password is not left in the fields.
  const [formKey, setFormKey] = useState(0);
  const currentRef = useRef<HTMLInputElement>(null);
  const doneRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (done) doneRef.current?.focus();
  }, [done]);

  const onSubmit = async ({ password }: { password: string }): Promise<PasswordSetOutcome> => {
    setFailure(null);
    setDone(null);
    if (!currentPassword) {
      setCurrentError(CURRENT_REQUIRED);
      currentRef.current?.focus();
      return;
    }
    const outcome = await changePassword({
      currentPassword,
      newPassword: password,
      signOutOtherSessions: signOutOthers,
    });
    switch (outcome.kind) {
      case 'changed':
        setCurrentPassword('');
        setCurrentError(null);
        setFormKey((key) => key + 1);
        setDone(changedNotice(outcome.endedSessions));
        onChanged();
        return;
      case 'wrong-password':
        setCurrentError(outcome.message);
        currentRef.current?.focus();
        return;
      case 'password-refused':
        return { passwordError: outcome.message };
      case 'failed':
        setFailure(outcome.message);
    }
  };

  return (
    <section
      className="account__section"
      aria-labelledby="account-password-title"
      data-testid="account-password"
    >
      <header className="account__section-header">
        <h2 id="account-password-title">Change your password</h2>
        <p>Pick a password you don’t use anywhere else. We’ll email you to confirm the change.</p>
      </header>
      <p
        className={`account__notice${done ? ' account__notice--done' : ''}`}
        role="status"
        tabIndex={-1}
        ref={doneRef}
        data-testid="account-password-notice"
      >
        {done}
      </p>
      <div className="account-password__form">
        <PasswordSetForm
          key={formKey}
          idPrefix="change-password"
          submitLabel="Change password"
          pendingText="Changing your password"
          onSubmit={onSubmit}
          banner={
            failure && (
              <Banner type="error" onDismiss={() => setFailure(null)} testId="account-password-error">
                {failure}
              </Banner>
            )
          }
          afterFields={
            <label className="account-password__sign-out">
              <input
                type="checkbox"
                checked={signOutOthers}
                onChange={(event) => setSignOutOthers(event.target.checked)}
                data-testid="sign-out-everywhere-else-choice"
              />
              Sign out everywhere else
            </label>
          }
        >
          <FormField id={CURRENT_ID} label="Current password" error={currentError ?? undefined}>
            <PasswordInput
              ref={currentRef}
              id={CURRENT_ID}
              name="currentPassword"
              autoComplete="current-password"
              value={currentPassword}
              onChange={(event) => {
                setCurrentPassword(event.target.value);
                setCurrentError(null);
              }}
              aria-invalid={currentError ? true : undefined}
              aria-describedby={currentError ? fieldErrorId(CURRENT_ID) : undefined}
            />
          </FormField>
        </PasswordSetForm>
      </div>
    </section>
  );
}
