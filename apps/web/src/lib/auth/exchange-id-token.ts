import { authEndpoints, type TokenExchangeRequest } from '@customer-core/contracts';
import { apiClient } from '../api-client';

export const TOKEN_EXCHANGE_FAILED =
  // eslint-disable-next-line lingui/no-unlocalized-strings -- the spec's error for the console, not for the borrower
  'Sign in success, idToken obtained, but failure to exchange token with micro-auth';

/** Spec section 4, step 4: the identity provider's ID token becomes the product's access token. */
export async function exchangeIdToken(idToken: string): Promise<string> {
  const body: TokenExchangeRequest = { token: idToken };
  const result = await apiClient.call(authEndpoints.tokenExchange, { body: body });
  if (result.isError) throw new Error(TOKEN_EXCHANGE_FAILED);
  return result.data.access_token;
}
