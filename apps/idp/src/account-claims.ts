import type { Account } from 'oidc-provider';
import type { IdpUser } from './user-repository.js';

/** Scopes that map to OIDC claims, as Okta's default authorization server publishes them. */
export const CLAIMS_BY_SCOPE = {
  // amr and auth_time come from the sign-in, not the account: ID tokens only, as Okta's carry them.
  // sid names the IdP session the ID token was issued in (ID tokens only), so that a relying party
  // can ask whether it is still signed in.
  // groups: a staff user's console roles, in every ID token (a borrower has none, so no claim), as an
  // Okta org's groups claim set to "any scope" does.
  openid: ['sub', 'amr', 'auth_time', 'sid', 'groups'],
  profile: ['name', 'given_name', 'family_name', 'preferred_username', 'locale', 'zoneinfo'],
  email: ['email', 'email_verified'],
};
export const OIDC_SCOPES = new Set(['openid', 'offline_access', ...Object.keys(CLAIMS_BY_SCOPE)]);

/**
 * The user as an oidc-provider account; oidc-provider masks the claims by granted scope. `sessionUid`
 * is the IdP session (its uid, never the cookie's value) of the code or refresh token being redeemed:
 * the ID token's sid. oidc-provider would only set sid for back-channel logout clients or a `claims`
 * request parameter, which okta-auth-js does not send.
 */
export function accountOf(user: IdpUser, sessionUid?: string): Account {
  return {
    accountId: user.id,
    claims: (use) => ({
      ...(use === 'id_token' && sessionUid ? { sid: sessionUid } : {}),
      ...(user.groups.length > 0 ? { groups: user.groups } : {}),
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
