import type { I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';
import { Banner } from '../../components/banner';
import { FormField, fieldErrorId } from '../../components/form-field';
import { PasswordInput } from '../../components/password-input';
import { PasswordSetForm, type PasswordSetOutcome } from '../../components/password-set/password-set-form';
import { changePassword } from './account-api';
import { AccountRow } from './account-row';
import { SectionNotice } from './section-parts';

const CURRENT_ID = 'change-password-current';
const CURRENT_REQUIRED = msg`Enter your current password.`;

const changedNotice = (ended: number, i18n: I18n) =>
  i18n._(
    ended === 0
      ? msg`Your password is changed.`
      : msg`${plural(ended, {
          one: 'Your password is changed, and your other device is signed out.',
          other: 'Your password is changed, and your # other devices are signed out.',
        })}`,
  );

/**
 * The password row; its form: the current one (the server checks it, which is also the proof that the
 * borrower is at the keyboard now), a new one with the reset screen's rules, and whether to sign out
 * elsewhere. A change made closes the form and says so under the row.
 */
export function ChangePasswordSection({ onChanged }: { onChanged: () => void }) {
  const { t } = useLingui();
  const [done, setDone] = useState<string | null>(null);
  return (
    <AccountRow
      row="password"
      title={t`Password`}
      testId="account-password"
      summary={t`Set`}
      summaryTestId="account-password-summary"
      action={t`Change`}
      actionTestId="account-password-open"
      onOpen={() => setDone(null)}
      notices={
        <SectionNotice
          notice={done ? { tone: 'done', text: done } : null}
          testId="account-password-notice"
          takeFocus={false}
        />
      }
    >
      {({ close }) => (
        <ChangePasswordForm
          onCancel={() => close()}
          onChanged={(notice) => {
            setDone(notice);
            close();
            onChanged();
          }}
        />
      )}
    </AccountRow>
  );
}

function ChangePasswordForm({
  onChanged,
  onCancel,
}: {
  onChanged: (notice: string) => void;
  onCancel: () => void;
}) {
  const { t, i18n } = useLingui();
  const [currentPassword, setCurrentPassword] = useState('');
  const [currentError, setCurrentError] = useState<string | null>(null);
  const [signOutOthers, setSignOutOthers] = useState(true);
  const [failure, setFailure] = useState<string | null>(null);
  const currentRef = useRef<HTMLInputElement>(null);

  const onSubmit = async ({ password }: { password: string }): Promise<PasswordSetOutcome> => {
    setFailure(null);
    if (!currentPassword) {
      setCurrentError(i18n._(CURRENT_REQUIRED));
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
        onChanged(changedNotice(outcome.endedSessions, i18n));
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
    <div className="account-row__form">
      <p className="account-row__intro">
        <Trans>Pick a password you don’t use anywhere else. We’ll email you to confirm the change.</Trans>
      </p>
      <PasswordSetForm
        idPrefix="change-password"
        submitLabel={t`Change password`}
        pendingText={t`Changing your password`}
        onSubmit={onSubmit}
        onCancel={onCancel}
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
            <Trans>Sign out everywhere else</Trans>
          </label>
        }
      >
        <FormField id={CURRENT_ID} label={t`Current password`} error={currentError ?? undefined}>
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
  );
}
