import { routes } from '@customer-core/contracts';
import { adoptProfileLanguage } from '../../i18n/language';
import { takeHeldAccessToken } from '../../lib/held-access-token';
import type { IdentityProviderClient } from '../../lib/identity-provider';
import {
  hasStoredAccessToken,
  readRawProfile,
  storeAccessToken,
  storeProfileJson,
} from '../../lib/product-session';
import { storedProfileFromClaims } from '../../lib/stored-profile-from-claims';

/**
 * After the identity provider's redirect: completes the product session a sign-in by e-mailed link
 * started (magic-link-landing), so that both storage keys end up as password sign-in leaves them.
 * The identity provider's tokens are in the token manager by now, so the portal's other tabs, told
 * of the new mf_access_token, find a whole session.
 */
export async function adoptHeldSession(client: IdentityProviderClient): Promise<void> {
  const held = takeHeldAccessToken();
  // A password sign-in stored its own token before leaving: a token held from an abandoned link is stale.
  const adopt = held !== null && !hasStoredAccessToken();
  // That sign-in had no authn call, so no profile: the identity provider's user claims give it.
  if (adopt || !readRawProfile()) {
    try {
      const profile = storedProfileFromClaims(await client.getUser());
      storeProfileJson(profile);
      adoptProfileLanguage(profile, { now: true });
    } catch (error) {
      // Not fatal: the signed-in home reads the profile call too.
      console.warn(`${routes.loginCallback.path}: could not read the user profile`, error);
    }
  }
  if (adopt) storeAccessToken(held);
}
