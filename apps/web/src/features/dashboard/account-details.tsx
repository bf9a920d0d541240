import type { DecodedAccessToken, StoredProfile } from '@customer-core/contracts';

interface AccountDetailsProps {
  profile: StoredProfile | null;
  token: DecodedAccessToken | null;
}

const signedInUntilFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function fullName(profile: StoredProfile | null): string | null {
  const name = [profile?.firstName, profile?.lastName].filter(Boolean).join(' ');
  return name || null;
}

/** What is known of the signed-in borrower: the identity profile and the product token. */
export function AccountDetails({ profile, token }: AccountDetailsProps) {
  const expiresAt = token ? new Date(token.exp * 1000) : null;
  return (
    <section
      className="account-details"
      aria-labelledby="account-details-title"
      data-testid="account-details"
    >
      <h2 id="account-details-title">Account details</h2>
      <dl className="account-details__list">
        <div>
          <dt>Name</dt>
          <dd data-testid="account-name">{fullName(profile) ?? 'Not provided'}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd data-testid="account-email">{token?.email ?? profile?.login ?? 'Not provided'}</dd>
        </div>
        <div>
          <dt>Signed in until</dt>
          <dd data-testid="account-signed-in-until">
            {expiresAt ? (
              <time dateTime={expiresAt.toISOString()}>{signedInUntilFormat.format(expiresAt)}</time>
            ) : (
              'Unknown'
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
}
