import { IDP_SCOPES, type SignIn } from '@customer-core/contracts';
import type { AuthnTransaction, Tokens } from '@okta/okta-auth-js/authn';
import { loadIdentityProvider, type IdentityProviderClient } from '../identity-provider';
export { preloadIdentityProvider } from '../identity-provider';
import { adoptProfileLanguage } from '../../i18n/language';
import { clearProductSession, storeAccessToken, storeProfileJson } from '../product-session';
import { peekReturnPath } from '../return-path';
import { exchangeIdToken } from './exchange-id-token';
import { clearSignInFailures } from './sign-in-failures';
import { beginSignInTrace, endSignInTrace } from './sign-in-trace';

// eslint-disable-next-line lingui/no-unlocalized-strings -- the spec's error for the console, not for the borrower
const ID_TOKEN_FAILED = 'Sign in success, but error obtaining idToken';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function obtainTokens(
  client: IdentityProviderClient,
  sessionToken: string | undefined,
): Promise<Tokens> {
  try {
    const { tokens } = await client.token.getWithoutPrompt({ sessionToken, scopes: [...IDP_SCOPES] });
    if (!tokens.idToken) throw new Error('no idToken');
    client.tokenManager.setTokens(tokens);
    return tokens;
  } catch {
    throw new Error(ID_TOKEN_FAILED);
  }
}

/** The states of a second factor the portal walks the borrower through (Okta's Classic API). */
const FACTOR_STATUSES = new Set(['MFA_REQUIRED', 'MFA_ENROLL', 'MFA_ENROLL_ACTIVATE', 'MFA_CHALLENGE']);

function failed(client: IdentityProviderClient | undefined, error: unknown): Error {
  endSignInTrace();
  clearProductSession('signed-out');
  client?.tokenManager.clear();
  const signInError = new Error(`Sign-in error: ${messageOf(error)}`, { cause: error });
  console.error(signInError);
  return signInError;
}

/**
 * The sign-in flow of spec section 4. On success the page leaves for the identity provider
 * (step 5) and comes back at the login callback; on failure nothing of the attempt is kept. When the
 * identity provider asks for a second factor, the transaction is returned for the factor screens,
 * which end it with finishSignIn. `onPasswordAccepted` runs as soon as the identity provider has
 * accepted the password: the pages the sign-in leads to can start loading then, during steps 2 to 5.
 */
export async function signIn(
  { email, password }: SignIn,
  onPasswordAccepted?: () => void,
): Promise<AuthnTransaction | undefined> {
  let client: IdentityProviderClient | undefined;
  let transaction: AuthnTransaction;
  try {
    beginSignInTrace();
    client = await loadIdentityProvider();
    // (1) credentials to the identity provider
    transaction = await client.signInWithCredentials({ username: email, password });
    // The password was right: the form's count of refusals (sign-in-failures.ts) starts again.
    clearSignInFailures();
    onPasswordAccepted?.();
    if (FACTOR_STATUSES.has(transaction.status)) return transaction;
  } catch (error) {
    throw failed(client, error);
  }
  await finishSignIn(transaction);
  return undefined;
}

/** What steps 2 to 5 read of a SUCCESS transaction (a passkey sign-in's answer has the same). */
export type SignedInTransaction = Pick<AuthnTransaction, 'status' | 'sessionToken' | 'user'>;

/** Steps 2 to 4: the product access token of a SUCCESS transaction, stored (the profile too). */
async function storeProductSession(client: IdentityProviderClient, transaction: SignedInTransaction) {
  if (transaction.status !== 'SUCCESS') throw new Error(`Could not sign in: ${transaction.status}`);
  // (2) the identity profile, kept as received (its language is the borrower's from now on)
  storeProfileJson(transaction.user?.profile);
  adoptProfileLanguage(transaction.user?.profile);
  // (3) the session token turned silently into an ID token and an access token
  const tokens = await obtainTokens(client, transaction.sessionToken);
  // (4) the ID token exchanged for the product's access token
  storeAccessToken(await exchangeIdToken(tokens.idToken?.idToken ?? ''));
}

/** Steps 2 to 5, once the transaction is SUCCESS (after the password, or after a second factor). */
export async function finishSignIn(
  transaction: SignedInTransaction,
  originalUri: string = peekReturnPath(),
): Promise<void> {
  let client: IdentityProviderClient | undefined;
  try {
    client = await loadIdentityProvider();
    await storeProductSession(client, transaction);
    // Steps 1 to 4 are the sign-in's trace; the redirect is a page load of its own.
    endSignInTrace();
    // (5) the redirect sign-in completed with the same session token
    await client.signInWithRedirect({ sessionToken: transaction.sessionToken, originalUri });
  } catch (error) {
    throw failed(client, error);
  }
}

/**
 * A fresh sign-in of the signed-in borrower (step-up before signing): steps 2 to 4 replace the product
 * token with one of a new auth_time, and the page stays where it is (no step 5). On failure the
 * current session stays as it was.
 */
export async function renewSignIn(transaction: SignedInTransaction): Promise<void> {
  await storeProductSession(await loadIdentityProvider(), transaction);
}

/**
 * The same for a session token the API handed over (a step-up by e-mailed code): steps 3 and 4. The
 * borrower is the one signed in already, so the profile kept from their sign-in stays.
 */
export async function renewWithSessionToken(sessionToken: string): Promise<void> {
  const tokens = await obtainTokens(await loadIdentityProvider(), sessionToken);
  storeAccessToken(await exchangeIdToken(tokens.idToken?.idToken ?? ''));
}

/**
 * Step 1 of a step-up: the borrower's password again. Returns the transaction when a second factor
 * is asked (the factor screens end it with renewSignIn); otherwise the product token is renewed.
 */
export async function confirmIdentity({ email, password }: SignIn): Promise<AuthnTransaction | undefined> {
  const client = await loadIdentityProvider();
  const transaction = await client.signInWithCredentials({ username: email, password });
  if (FACTOR_STATUSES.has(transaction.status)) return transaction;
  await storeProductSession(client, transaction);
  return undefined;
}
