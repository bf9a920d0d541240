import type { Kysely } from 'kysely';
import type { IdentityProvider } from '@customer-core/idp';
import { borrowerRepository, type BorrowerRepository } from './borrowers/borrower-repository.js';
import type { Config } from './config/config.js';
import type { ApiDatabase } from './db/schema.js';
import type { MailService } from './mail/index.js';
import { accessTokenChecker, type AccessTokenChecker } from './tokens/access-tokens.js';
import { IdTokenVerifier } from './tokens/id-token-verifier.js';
import { lookupTokenStore, type LookupTokenStore } from './tokens/lookup-tokens.js';
import { ProductTokens } from './tokens/product-token.js';
import { sessionStore, type SessionStore } from './tokens/session-store.js';
import { ProductKeyRing } from './tokens/signing-keys.js';

/** The domain services the auth routes use, built once per instance. */
export interface AuthServices {
  idTokens: IdTokenVerifier;
  productTokens: ProductTokens;
  checkAccessToken: AccessTokenChecker;
  keys: ProductKeyRing;
  sessions: SessionStore;
  lookupTokens: LookupTokenStore;
  borrowers: BorrowerRepository;
  /** Trusted systems allowed to mint lookup tokens: name -> sha-256 of their credential. */
  serviceCredentials: Map<string, Buffer>;
  /** The bundled identity provider, when this deployment runs it. */
  identityProvider: { issuer: string; endSessions(accountId: string): Promise<void> } | null;
  /** E-mail: enqueue in the transaction that creates what a message carries, then nudge. */
  mail: MailService;
}

export async function createAuthServices(
  config: Config,
  db: Kysely<ApiDatabase>,
  idp: IdentityProvider | null,
  mail: MailService,
): Promise<AuthServices> {
  const keys = await ProductKeyRing.open(db);
  const bundled = config.bundledIdp;
  const trusted = [config.identityProviders.production, config.identityProviders.nonProduction].map((p) => ({
    ...p,
    localKeys: idp && bundled && p.issuer === bundled.issuer ? () => idp.publicKeys() : undefined,
  }));
  const productTokens = new ProductTokens(keys, {
    issuer: config.publicUrl,
    ttlSeconds: config.accessTokenTtlSeconds,
    sessionMaxAgeSeconds: config.sessionMaxAgeSeconds,
  });
  const sessions = sessionStore(db);
  return {
    idTokens: new IdTokenVerifier(trusted),
    productTokens,
    checkAccessToken: accessTokenChecker(productTokens, sessions),
    keys,
    sessions,
    lookupTokens: lookupTokenStore(db),
    borrowers: borrowerRepository(db),
    serviceCredentials: config.serviceCredentials,
    identityProvider:
      idp && bundled
        ? { issuer: bundled.issuer, endSessions: (accountId) => idp.endSessions(accountId) }
        : null,
    mail,
  };
}
