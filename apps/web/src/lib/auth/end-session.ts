import { authEndpoints, type LogoutRequest } from '@customer-core/contracts';
import { apiClient } from '../api-client';
import { loadIdentityProvider } from '../identity-provider';
import { clearProductSession, readRawAccessToken } from '../product-session';
import { clearReturnPath } from '../return-path';

/** The identity provider's tokens (okta-auth-js token manager), shared by every tab. */
export async function forgetIdentityProviderTokens(): Promise<void> {
  try {
    const client = await loadIdentityProvider();
    client.tokenManager.clear();
  } catch {
    // No identity provider client here: it cannot hold tokens either.
  }
}

/**
 * Sign-out: everything local goes first, so that every other tab leaves at once (storage event),
 * then the API revokes the whole session, even when that call fails the borrower is signed out here.
 */
export async function endSession(): Promise<void> {
  const accessToken = readRawAccessToken();
  clearProductSession('signed-out');
  clearReturnPath();
  await forgetIdentityProviderTokens();
  if (accessToken) {
    const body: LogoutRequest = { access_token: accessToken };
    await apiClient.call(authEndpoints.logout, { body: body });
  }
}
