import { useState } from 'react';
import { SignedInPage } from '../../components/signed-in-shell/signed-in-page';
import { ChangeEmailSection } from './change-email-section';
import { ChangePasswordSection } from './change-password-section';
import { SessionsSection } from './sessions-section';
import './account.css';

/**
 * /ui/dashboard/account: the borrower's own account, one section per concern (each its own
 * component, so more can sit beside them).
 */
export function AccountScreen() {
  // A password change may sign other devices out: the sessions list then loads again.
  const [changes, setChanges] = useState(0);
  return (
    <SignedInPage
      title="Sign-in and security"
      intro="Where you’re signed in, signing out the devices you don’t use, your password and your email address."
      titleId="account-page-title"
      testId="account-page"
    >
      <SessionsSection refresh={changes} />
      <ChangePasswordSection onChanged={() => setChanges((n) => n + 1)} />
      <ChangeEmailSection />
    </SignedInPage>
  );
}
