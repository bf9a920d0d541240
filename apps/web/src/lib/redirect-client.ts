import {
  createCoreOptionsConstructor,
  createCoreStorageManager,
  createOktaAuthCore,
  createTransactionManager,
  mixinAuthn,
} from '@okta/okta-auth-js/authn';

/**
 * The whole authn client, core part included (handleLoginRedirect and the auth state it keeps), for
 * the login callback: okta-auth-js's own OktaAuth, composed here from the same parts so that the
 * sign-in client's chunk (identity-provider-client.ts) does not carry the core part along with it.
 */
export class RedirectClient extends mixinAuthn(
  createOktaAuthCore(createCoreStorageManager(), createCoreOptionsConstructor(), createTransactionManager()),
) {}
