import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { SignedInPage } from '../../components/signed-in-shell/signed-in-page';
import { getLenderBranding } from '../../config/portal-config-meta';
import { usePendingToast } from '../../lib/pending-toast';
import { readAccessToken, readStoredProfile } from '../../lib/product-session-data';
import { AccountDetails } from './account-details';
import { ApplicationsSection } from './applications-section';
import { LandingNoticeBanner } from './landing-notice-banner';
import { useProfile } from './get-profile';
import { LoansSection } from './loans-section';
import './dashboard.css';

/** The signed-in home (default landing path): a summary of the borrower's loans, and their account. */
export function DashboardScreen() {
  const { t } = useLingui();
  const [profile] = useState(readStoredProfile);
  const [tokenEmail] = useState(() => readAccessToken()?.email ?? null);
  const apiProfile = useProfile();
  // A notice said before a full-page sign-in redirect (registration's "account ready") is shown here.
  usePendingToast();
  // The greeting comes from the stored profile, there from the first render, so it never flickers.
  const firstName = (profile ? profile.firstName : apiProfile?.firstName)?.trim();
  const lender = getLenderBranding().name;

  return (
    <SignedInPage
      title={t`Your account`}
      heading={firstName ? t`Hello, ${firstName}` : t`Hello`}
      intro={t`You’re signed in to your ${lender} account.`}
      titleId="dashboard-title"
      testId="dashboard"
    >
      <LandingNoticeBanner />
      <ApplicationsSection />
      <LoansSection view="summary" />
      <AccountDetails profile={apiProfile} storedProfile={profile} tokenEmail={tokenEmail} />
    </SignedInPage>
  );
}
