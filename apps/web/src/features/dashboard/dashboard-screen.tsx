import { useState } from 'react';
import { PageTitle } from '../../components/page-title';
import { getLenderBranding } from '../../config/portal-config-meta';
import { usePendingToast } from '../../lib/pending-toast';
import { readAccessToken, readStoredProfile } from '../../lib/product-session-data';
import { AccountDetails } from './account-details';
import { useProfile } from './get-profile';
import { LoansSection } from './loans-section';
import './dashboard.css';

/** The signed-in home (default landing path): the borrower's loans and account. */
export function DashboardScreen() {
  const [profile] = useState(readStoredProfile);
  const [tokenEmail] = useState(() => readAccessToken()?.email ?? null);
  const apiProfile = useProfile();
  // A notice said before a full-page sign-in redirect (registration's "account ready") is shown here.
  usePendingToast();
  // The greeting comes from the stored profile, there from the first render, so it never flickers.
  const firstName = (profile ? profile.firstName : apiProfile?.firstName)?.trim();

  return (
    <section
      className="dashboard"
      aria-labelledby="dashboard-title"
      data-testid="dashboard"
      data-layout="wide"
    >
      <PageTitle title="Your account" />
      <header className="dashboard__header">
        <h1 id="dashboard-title">{firstName ? `Hello, ${firstName}` : 'Hello'}</h1>
        <p className="dashboard__intro">You&rsquo;re signed in to your {getLenderBranding().name} account.</p>
      </header>
      <LoansSection />
      <AccountDetails profile={apiProfile} storedProfile={profile} tokenEmail={tokenEmail} />
    </section>
  );
}
