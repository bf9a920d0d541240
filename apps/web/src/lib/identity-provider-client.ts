import {
  createOAuthOptionsConstructor,
  createOAuthStorageManager,
  createOktaAuthOAuth,
  createTransactionManager,
  get,
  getWellKnown,
  mixinAuthn,
} from '@okta/okta-auth-js/authn';

// okta-auth-js's authn client is built from mixins. Every screen but the login callback uses its
// OAuth and authn parts alone: the core part (an auth state kept current, background services that
// elect a leader tab over a broadcast channel) is about a quarter of the code, and a sign-in sends
// its password without it. The login callback finishes the redirect with the whole client
// (identity-provider.ts).

/** The client of sign-in, step-up and sign-out: OAuth (tokens, redirects) and the authn API. */
export class SignInClient extends mixinAuthn(
  createOktaAuthOAuth(
    createOAuthStorageManager(),
    createOAuthOptionsConstructor(),
    createTransactionManager(),
  ),
) {
  /**
   * What every sign-in asks the provider for, whoever signs in: its discovery document (before
   * authorize) and its keys (to verify the ID token), put in okta-auth-js's own cache, where the
   * sign-in looks first (kept a day; keys fetched again for a key id they lack).
   */
  async fetchDiscovery(): Promise<void> {
    const { jwks_uri: keys } = await getWellKnown(this);
    await get(this, keys, { cacheResponse: true });
  }
}
