import { takeHeldAccessToken } from '../../lib/held-access-token';
import {
  loadRedirectClient,
  takeRestoredOriginalUri,
  type IdentityProviderClient,
} from '../../lib/identity-provider';
import { hasStoredAccessToken } from '../../lib/product-session';
import { peekReturnPath } from '../../lib/return-path';
import { toSafeReturnPath } from '@customer-core/contracts';
import { adoptHeldSession } from './adopt-held-session';

// The authorization code can be redeemed once: the redirect is finished at most once per page load,
// however often the screen mounts (React StrictMode runs effects twice in development).
let processing: Promise<string> | undefined;

/** An error the identity provider sent back in the address, e.g. ?error=login_required. */
function errorInAddress(): Error | null {
  const params = new URLSearchParams(window.location.search);
  const error = params.get('error');
  if (!error) return null;
  const description = params.get('error_description');
  return new Error(description ? `${error}: ${description}` : error);
}

/**
 * The password sign-in had finished before it left for the identity provider (its hidden frame gave
 * the ID token the product session was made with), and the provider answered the redirect
 * login_required: it honours the session token a second time only in the provider session that
 * spent it, and a browser that blocks third-party cookies never kept that session's cookie (a
 * provider on another site than the portal). The borrower is signed in all the same.
 */
async function signedInBeforeTheRedirect(client: IdentityProviderClient, refusal: string | null) {
  return refusal === 'login_required' && hasStoredAccessToken() && (await client.isAuthenticated());
}

async function finishLoginRedirect(): Promise<string> {
  // Read first: okta-auth-js takes its answer out of the address.
  const refusal = new URLSearchParams(window.location.search).get('error');
  const client = await loadRedirectClient();
  try {
    await client.handleLoginRedirect();
    const authStateError = client.authStateManager.getAuthState()?.error ?? errorInAddress();
    if (authStateError) throw authStateError;
  } catch (error) {
    if (await signedInBeforeTheRedirect(client, refusal)) return toSafeReturnPath(peekReturnPath());
    // A sign-in by e-mailed link that did not complete leaves nothing behind.
    takeHeldAccessToken();
    throw error;
  }
  await adoptHeldSession(client);
  return toSafeReturnPath(takeRestoredOriginalUri() ?? peekReturnPath());
}

/** Finishes the identity provider's redirect and answers where the borrower goes next. */
export function processLoginRedirectOnce(): Promise<string> {
  processing ??= finishLoginRedirect();
  return processing;
}

/** An authorization response in the query: a code with its state, or an error. */
export function isAuthorizationResponse(search: string): boolean {
  const params = new URLSearchParams(search);
  return (params.has('code') && params.has('state')) || params.has('error');
}
