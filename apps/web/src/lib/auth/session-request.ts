import type { ApiPath, ApiRequestOptions, ApiResult } from '../api-client';
import { apiClient } from '../api-client';
import { readRawAccessToken } from '../product-session';
import { notifySessionRefused } from './session-refusals';

/**
 * A call to the product API as the signed-in borrower (Bearer mf_access_token). A 401 for the token
 * still stored ends the session; one for a token replaced meanwhile (refreshed, perhaps by another
 * tab: the API refuses a refreshed token) is tried once more with the new token.
 */
export async function sessionRequest<T = unknown>(
  path: ApiPath,
  options: Omit<ApiRequestOptions, 'token'> = {},
  retried = false,
): Promise<ApiResult<T>> {
  const token = readRawAccessToken();
  // No session to end: it has ended already.
  if (!token) return { isError: true, status: 401, responseText: 'Not signed in' };
  const result = await apiClient.request<T>(path, { ...options, token });
  if (!result.isError || result.status !== 401) return result;
  const stored = readRawAccessToken();
  if (stored === token) notifySessionRefused(token);
  else if (stored && !retried) return sessionRequest<T>(path, options, true);
  return result;
}
