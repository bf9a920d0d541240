import type { Endpoint, SuccessBody } from '@customer-core/contracts';
import type { ApiResult, CallArgs, CallInput } from '../api-client';
import { apiClient } from '../api-client';
import { readRawAccessToken } from '../product-session';
import { notifySessionRefused } from '../session/session-refusals';

/**
 * A call of a borrower endpoint as the signed-in borrower (Bearer mf_access_token). A 401 for the token
 * still stored ends the session; one for a token replaced meanwhile (refreshed, perhaps by another
 * tab: the API refuses a refreshed token) is tried once more with the new token.
 */
export function sessionRequest<E extends Endpoint & { access: 'borrower' }>(
  endpoint: E,
  ...[input = {} as CallInput<E>]: CallArgs<E>
): Promise<ApiResult<SuccessBody<E>>> {
  return withSession(endpoint, input, false);
}

async function withSession<E extends Endpoint>(
  endpoint: E,
  input: CallInput<E>,
  retried: boolean,
): Promise<ApiResult<SuccessBody<E>>> {
  const token = readRawAccessToken();
  // No session to end: it has ended already.
  // eslint-disable-next-line lingui/no-unlocalized-strings -- a response text for the code; the screen says its own words
  if (!token) return { isError: true, status: 401, responseText: 'Not signed in' };
  const result = await apiClient.send(endpoint, { ...input, token });
  if (!result.isError || result.status !== 401) return result;
  const stored = readRawAccessToken();
  if (stored === token) notifySessionRefused(token);
  else if (stored && !retried) return withSession(endpoint, input, true);
  return result;
}
