import { useState } from 'react';
import { SignedInPage } from '../../components/signed-in-shell/signed-in-page';
import { ActivitySection } from './activity-section';
import { ChangeEmailSection } from './change-email-section';
import { ChangePasswordSection } from './change-password-section';
import { PasskeysSection } from './passkeys-section';
import { RecoveryCodesSection } from './recovery-codes-section';
import { SecondFactorsSection } from './second-factors-section';
import { SessionsSection } from './sessions-section';
import './account.css';

/**
 * /ui/dashboard/account: the borrower's own account, one section per concern (each its own
 * component, so more can sit beside them).
 */
export function AccountScreen() {
  // A password change may sign other devices out: the sessions list then loads again.
  const [changes, setChanges] = useState(0);
  // Signing devices out and changing the password add events: the activity list then loads again.
  const [events, setEvents] = useState(0);
  return (
    <SignedInPage
      title="Sign-in and security"
      intro="Where you’re signed in, signing out the devices you don’t use, your password, your email address, two-step verification, passkeys, and what happened lately."
      titleId="account-page-title"
      testId="account-page"
    >
      <SessionsSection refresh={changes} onEnded={() => setEvents((n) => n + 1)} />
      <ChangePasswordSection
        onChanged={() => {
          setChanges((n) => n + 1);
          setEvents((n) => n + 1);
        }}
      />
      <ChangeEmailSection />
      <SecondFactorsSection onChanged={() => setEvents((n) => n + 1)} />
      <PasskeysSection onChanged={() => setEvents((n) => n + 1)} />
      <RecoveryCodesSection refresh={events} onChanged={() => setEvents((n) => n + 1)} />
      <ActivitySection refresh={events} />
    </SignedInPage>
  );
}
