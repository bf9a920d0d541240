import { toSafeReturnPath, type LinkSignedIn } from '@customer-core/contracts';
import { holdAccessToken, takeHeldAccessToken } from './held-access-token';
import type { IdentityProviderClient } from './identity-provider';
import {
  clearProductSession,
  hasStoredAccessToken,
  markWithoutIdentityProviderSession,
  storeAccessToken,
} from './product-session';
import { peekReturnPath, saveReturnPath } from './return-path';

/**
 * The sign-in by an e-mailed link (a sign-in link, a registration invitation) after the API said yes:
 * like step 5 of password sign-in, a redirect sign-in at the identity provider with the session token,
 * back at the login callback, which then stores the product token held here and the profile
 * (login-redirect/process-login-redirect.ts).
 */
export async function completeLinkSignIn(
  client: IdentityProviderClient,
  { access_token, sessionToken, returnTo }: LinkSignedIn,
): Promise<void> {
  // Whoever was signed in in this browser before is not the one signing in now.
  if (hasStoredAccessToken()) clearProductSession('signed-out');
  const originalUri = returnTo ? toSafeReturnPath(returnTo) : peekReturnPath();
  if (sessionToken === null) {
    // The identity provider has no session to give (a hosted org, see product-session.ts): the product
    // token alone signs in, and a fresh page load starts the signed-in portal where the link leads.
    client.tokenManager.clear();
    // The mark first: other tabs, told of the new token, must find the session whole.
    markWithoutIdentityProviderSession();
    storeAccessToken(access_token);
    window.location.assign(originalUri);
    return;
  }
  try {
    holdAccessToken(access_token);
    saveReturnPath(originalUri);
    await client.signInWithRedirect({ sessionToken, originalUri });
  } catch (error) {
    takeHeldAccessToken();
    client.tokenManager.clear();
    throw error;
  }
}
