import { loadIdentityProvider } from '../identity-provider';
import { clearProductSession } from '../product-session';
import { hasValidAccessToken } from '../product-session-data';
import type { AuthStatus } from './auth-context';

/**
 * Signed in means both: a valid product token AND an identity-provider session in the token manager.
 * Without a valid product token the identity provider client is not even loaded.
 */
export async function resolveAuthStatus(): Promise<AuthStatus> {
  if (!hasValidAccessToken()) {
    // Expired or malformed: nothing of that session is usable any more.
    clearProductSession('ended');
    return 'unauthenticated';
  }
  const client = await loadIdentityProvider();
  if (await client.isAuthenticated()) return 'authenticated';
  // A login redirect is being finished on this page: its screen refreshes the state when done.
  if (client.isLoginRedirect()) return 'unknown';
  clearProductSession('ended');
  return 'unauthenticated';
}
