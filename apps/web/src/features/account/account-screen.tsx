import { useState } from 'react';
import { PageTitle } from '../../components/page-title';
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
    <section
      className="account"
      aria-labelledby="account-page-title"
      data-testid="account-page"
      data-layout="wide"
    >
      <PageTitle title="Your account" />
      <header className="account__header">
        <h1 id="account-page-title">Your account</h1>
        <p className="account__intro">
          Where you’re signed in, signing out the devices you don’t use, and your password.
        </p>
      </header>
      <SessionsSection refresh={changes} />
      <ChangePasswordSection onChanged={() => setChanges((n) => n + 1)} />
    </section>
  );
}
