import { apiPaths } from '@customer-core/contracts';
import { apiClient } from '../api-client';
import { loadIdentityProvider } from '../identity-provider';
import { clearProductSession, readRawAccessToken } from '../product-session';
import { clearReturnPath } from '../return-path';

/** Revokes the product token, then clears everything local even when the API call fails. */
export async function endSession(): Promise<void> {
  const accessToken = readRawAccessToken();
  if (accessToken) await apiClient.post(apiPaths.auth.logout, { access_token: accessToken });
  clearProductSession();
  clearReturnPath();
  try {
    const client = await loadIdentityProvider();
    client.tokenManager.clear();
  } catch {
    // No identity provider client here: it cannot hold tokens either.
  }
}
