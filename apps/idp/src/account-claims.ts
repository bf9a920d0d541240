import type { Account } from 'oidc-provider';
import type { IdpUser } from './users.js';

/** Scopes that map to OIDC claims, as Okta's default authorization server publishes them. */
export const CLAIMS_BY_SCOPE = {
  // amr and auth_time come from the sign-in, not the account: ID tokens only, as Okta's carry them.
  openid: ['sub', 'amr', 'auth_time'],
  profile: ['name', 'given_name', 'family_name', 'preferred_username', 'locale', 'zoneinfo'],
  email: ['email', 'email_verified'],
};
export const OIDC_SCOPES = new Set(['openid', 'offline_access', ...Object.keys(CLAIMS_BY_SCOPE)]);

/** The user as an oidc-provider account; oidc-provider masks the claims by granted scope. */
export function accountOf(user: IdpUser): Account {
  return {
    accountId: user.id,
    claims: () => ({
      sub: user.id,
      name: `${user.firstName} ${user.lastName}`,
      given_name: user.firstName,
      family_name: user.lastName,
      preferred_username: user.login,
      // Okta's profile says en_US, its claims say en-US (BCP 47).
      locale: user.locale.replace(/_/g, '-'),
      zoneinfo: user.timeZone,
      email: user.login,
      email_verified: user.emailVerified,
    }),
  };
}
