import { IDP_SCOPES, routes, selectIdentityProvider } from '@customer-core/contracts';
import type { OktaAuth, OktaAuthOptions } from '@okta/okta-auth-js/authn';
import type { SignInClient } from './identity-provider-client';
import type { RedirectClient } from './redirect-client';
import { getPortalConfig } from '../config/portal-config';
import {
  IdentityProviderUnavailableError,
  getIdentityProviderUnavailableReason,
} from './identity-provider-availability';

// The identity provider's client (okta-auth-js). Its code is imported on demand, so that the sign-in
// route's first load stays small, and the client is built once per page load: the OAuth and authn
// parts alone (identity-provider-client.ts), or on the login callback the whole client.

/** What the portal uses of the client, which both builds have. */
export type IdentityProviderClient = Pick<
  OktaAuth,
  | 'signInWithCredentials'
  | 'signInWithRedirect'
  | 'token'
  | 'tokenManager'
  | 'tx'
  | 'getUser'
  | 'isAuthenticated'
  | 'isLoginRedirect'
>;
export type { RedirectClient };
type ClientClass<C> = new (options: OktaAuthOptions) => C;

const loadSignInClientCode = (): Promise<ClientClass<SignInClient>> =>
  import('./identity-provider-client').then(({ SignInClient }) => SignInClient);
const loadRedirectClientCode = (): Promise<ClientClass<RedirectClient>> =>
  import('./redirect-client').then(({ RedirectClient }) => RedirectClient);

/**
 * The sign-in client, built ahead as the borrower starts using the sign-in form, with the provider's
 * discovery document and keys in its cache: LOGIN then goes from authn straight to authorize, and the
 * ID token is verified without a request. Failing here costs nothing: the sign-in fetches them itself.
 */
export function preloadIdentityProvider(): void {
  void signInClient()
    .then((client) => client.fetchDiscovery())
    .catch(() => undefined);
}

/** The whole client's code, fetched ahead of the login callback (which finishes the redirect with it). */
export function preloadRedirectClient(): void {
  void loadRedirectClientCode().catch(() => undefined);
}

let clientPromise: Promise<SignInClient> | undefined;
let redirectClientPromise: Promise<RedirectClient> | undefined;
let restoredOriginalUri: string | undefined;

async function createClient<C>(loadCode: () => Promise<ClientClass<C>>): Promise<C> {
  const config = getPortalConfig();
  const reason = getIdentityProviderUnavailableReason() ?? (config ? null : 'not-configured');
  if (reason || !config) throw new IdentityProviderUnavailableError(reason ?? 'not-configured');
  const { issuer, clientId } = selectIdentityProvider(config, window.location.origin);
  const Client = await loadCode();
  return new Client({
    issuer,
    clientId,
    redirectUri: `${window.location.origin}${routes.loginCallback.path}`,
    scopes: [...IDP_SCOPES],
    pkce: true,
    // The login-redirect screen navigates inside the app instead of okta-auth-js reloading the page.
    restoreOriginalUri: async (_client, originalUri) => {
      restoredOriginalUri = originalUri;
    },
  });
}

/** A failed chunk download may succeed on the next attempt: a failure is not kept. */
function retryable<C>(created: Promise<C>, forget: () => void): Promise<C> {
  return created.catch((error: unknown) => {
    forget();
    throw error;
  });
}

/**
 * The page's client: on the login callback's page (and after it, in the same page load) the whole
 * client that finishes the redirect, so that every screen there shares one; elsewhere the sign-in
 * client.
 */
export function loadIdentityProvider(): Promise<IdentityProviderClient> {
  if (redirectClientPromise || window.location.pathname === routes.loginCallback.path)
    return loadRedirectClient();
  return signInClient();
}

function signInClient(): Promise<SignInClient> {
  clientPromise ??= retryable(createClient(loadSignInClientCode), () => (clientPromise = undefined));
  return clientPromise;
}

/** The whole client, which finishes a login redirect (handleLoginRedirect and the auth state it keeps). */
export function loadRedirectClient(): Promise<RedirectClient> {
  redirectClientPromise ??= retryable(
    createClient(loadRedirectClientCode),
    () => (redirectClientPromise = undefined),
  );
  return redirectClientPromise;
}

/** The original address okta-auth-js handed back after the last login redirect, read once. */
export function takeRestoredOriginalUri(): string | undefined {
  const uri = restoredOriginalUri;
  restoredOriginalUri = undefined;
  return uri;
}
