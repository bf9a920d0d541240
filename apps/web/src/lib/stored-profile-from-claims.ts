import type { StoredProfile } from '@customer-core/contracts';

/** The identity provider's user claims that carry the profile (OIDC scopes profile and email). */
export interface ProfileClaims {
  sub: string;
  email?: string;
  preferred_username?: string;
  given_name?: string;
  family_name?: string;
  locale?: string;
  zoneinfo?: string;
}

/**
 * The mf-profile a sign-in without the authn call (an e-mailed link) stores: the same shape as the
 * authn profile password sign-in keeps. Claims say en-US (BCP 47) where that profile says en_US.
 */
export function storedProfileFromClaims(claims: ProfileClaims): StoredProfile {
  return {
    login: claims.preferred_username ?? claims.email ?? claims.sub,
    firstName: claims.given_name ?? null,
    lastName: claims.family_name ?? null,
    locale: claims.locale?.replace(/-/g, '_') ?? null,
    timeZone: claims.zoneinfo ?? null,
  };
}
