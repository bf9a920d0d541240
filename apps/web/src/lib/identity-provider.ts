import { IDP_SCOPES, routes, selectIdentityProvider } from '@customer-core/contracts';
import type { OktaAuth } from '@okta/okta-auth-js/authn';
import { getPortalConfig } from '../config/portal-config';
import {
  IdentityProviderUnavailableError,
  getIdentityProviderUnavailableReason,
} from './identity-provider-availability';

// The identity provider client (okta-auth-js, authn entry). It is imported on demand, so that the
// sign-in route's first load stays small, and built once per page load.

export type IdentityProviderClient = OktaAuth;

// Only what is used of the module, so that the bundler drops the rest of it.
const loadClientCode = () => import('@okta/okta-auth-js/authn').then(({ OktaAuth }) => OktaAuth);

/** The client's code alone, fetched ahead (as the borrower starts using the sign-in form). */
export function preloadIdentityProvider(): void {
  void loadClientCode().catch(() => undefined);
}

let clientPromise: Promise<IdentityProviderClient> | undefined;
let restoredOriginalUri: string | undefined;

async function createClient(): Promise<IdentityProviderClient> {
  const config = getPortalConfig();
  const reason = getIdentityProviderUnavailableReason() ?? (config ? null : 'not-configured');
  if (reason || !config) throw new IdentityProviderUnavailableError(reason ?? 'not-configured');
  const { issuer, clientId } = selectIdentityProvider(config, window.location.origin);
  const OktaAuth = await loadClientCode();
  return new OktaAuth({
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

export function loadIdentityProvider(): Promise<IdentityProviderClient> {
  clientPromise ??= createClient().catch((error: unknown) => {
    // A failed chunk download may succeed on the next attempt.
    clientPromise = undefined;
    throw error;
  });
  return clientPromise;
}

/** The original address okta-auth-js handed back after the last login redirect, read once. */
export function takeRestoredOriginalUri(): string | undefined {
  const uri = restoredOriginalUri;
  restoredOriginalUri = undefined;
  return uri;
}
