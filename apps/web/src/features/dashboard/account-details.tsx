import { Trans, useLingui } from '@lingui/react/macro';
import { fullName } from '../../lib/borrower-name';
import type { Profile, StoredProfile } from '@customer-core/contracts';

interface AccountDetailsProps {
  /** From the API; null until it has arrived. */
  profile: Profile | null;
  /** Kept at sign-in (mf-profile): shown meanwhile, so that nothing flickers. */
  storedProfile: StoredProfile | null;
  /** The product token's e-mail, the last resort. */
  tokenEmail: string | null;
}

/** What is known of the signed-in borrower. */
export function AccountDetails({ profile, storedProfile, tokenEmail }: AccountDetailsProps) {
  const { t } = useLingui();
  const name = profile ? fullName(profile) : fullName(storedProfile);
  const email = profile?.email ?? tokenEmail ?? storedProfile?.login;
  return (
    <section
      className="account-details"
      aria-labelledby="account-details-title"
      data-testid="account-details"
      data-source={profile ? 'api' : 'stored'}
    >
      <h2 id="account-details-title">
        <Trans>Account details</Trans>
      </h2>
      <dl className="account-details__list">
        <div>
          <dt>
            <Trans>Name</Trans>
          </dt>
          <dd data-testid="account-name">{name ?? t`Not provided`}</dd>
        </div>
        <div>
          <dt>
            <Trans>Email</Trans>
          </dt>
          <dd data-testid="account-email">{email ?? t`Not provided`}</dd>
        </div>
      </dl>
    </section>
  );
}
