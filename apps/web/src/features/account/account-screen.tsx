import { routes } from '@customer-core/contracts';
import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Link } from 'react-router';
import { SignedInPage } from '../../components/signed-in-shell/signed-in-page';
import { AccountRows } from './account-row';
import { ActivitySection } from './activity-section';
import { ChangeEmailSection } from './change-email-section';
import { ChangePasswordSection } from './change-password-section';
import { LanguageSection } from './language-section';
import { PasskeysSection } from './passkeys-section';
import { RecoveryCodesSection } from './recovery-codes-section';
import { SecondFactorsSection } from './second-factors-section';
import { SessionsSection } from './sessions-section';
import './account.css';

/**
 * /ui/dashboard/account: the borrower's own account. How they sign in, one summary row per concern
 * (each its own component) that opens into its form; the devices signed in; what happened lately.
 */
export function AccountScreen() {
  const { t } = useLingui();
  // A password change may sign other devices out: the sessions list then loads again.
  const [changes, setChanges] = useState(0);
  // Signing devices out and changing the password add events: the activity list then loads again.
  const [events, setEvents] = useState(0);
  return (
    <SignedInPage
      title={t`Sign-in and security`}
      intro={t`How you sign in, where you’re signed in, and what happened to your account lately.`}
      titleId="account-page-title"
      testId="account-page"
    >
      <AccountRows>
        <div className="account__rows" data-testid="account-sign-in-rows">
          <ChangeEmailSection />
          <ChangePasswordSection
            onChanged={() => {
              setChanges((n) => n + 1);
              setEvents((n) => n + 1);
            }}
          />
          <SecondFactorsSection onChanged={() => setEvents((n) => n + 1)} />
          <PasskeysSection onChanged={() => setEvents((n) => n + 1)} />
          <RecoveryCodesSection refresh={events} onChanged={() => setEvents((n) => n + 1)} />
        </div>
        <SessionsSection refresh={changes} onEnded={() => setEvents((n) => n + 1)} />
        <div className="account__rows">
          <ActivitySection refresh={events} />
        </div>
        <div className="account__rows">
          <LanguageSection />
        </div>
        <div className="account__rows">
          <section className="account-row" aria-labelledby="account-bank-accounts-title">
            <div className="account-row__summary">
              <div className="account-row__text">
                <h2 id="account-bank-accounts-title">{t`Bank accounts`}</h2>
                <p className="account-row__state">{t`The business bank accounts you pay your loans from.`}</p>
              </div>
              <Link
                to={routes.bankAccounts.path}
                className="button button--secondary account-row__button"
                aria-describedby="account-bank-accounts-title"
                data-testid="account-bank-accounts-link"
              >
                {t`Manage`}
              </Link>
            </div>
          </section>
        </div>
      </AccountRows>
    </SignedInPage>
  );
}
