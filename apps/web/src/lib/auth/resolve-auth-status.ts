import { loadIdentityProvider } from '../identity-provider';
import { clearProductSession, isWithoutIdentityProviderSession } from '../product-session';
import { hasValidAccessToken } from '../product-session-data';
import type { AuthStatus } from './auth-context';

/**
 * Signed in means both: a valid product token AND an identity-provider session in the token manager
 * (or a session marked as having none, see product-session.ts). Without a valid product token the
 * identity provider client is not even loaded.
 */
export async function resolveAuthStatus(): Promise<AuthStatus> {
  if (!hasValidAccessToken()) {
    // Expired or malformed: nothing of that session is usable any more.
    clearProductSession('ended');
    return 'unauthenticated';
  }
  // A sign-in link with a hosted org: the product session is the whole session.
  if (isWithoutIdentityProviderSession()) return 'authenticated';
  const client = await loadIdentityProvider();
  if (await client.isAuthenticated()) return 'authenticated';
  // A login redirect is being finished on this page: its screen refreshes the state when done.
  if (client.isLoginRedirect()) return 'unknown';
  clearProductSession('ended');
  return 'unauthenticated';
}
