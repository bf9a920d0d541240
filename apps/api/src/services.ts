import type { Kysely } from 'kysely';
import type { IdentityProvider } from '@customer-core/idp';
import { borrowerRepository, type BorrowerRepository } from './borrowers/borrower-repository.js';
import type { Config } from './config/config.js';
import type { ApiDatabase } from './db/schema.js';
import { IdTokenVerifier } from './tokens/id-token-verifier.js';
import { ProductTokens } from './tokens/product-token.js';
import { revocationStore, type RevocationStore } from './tokens/revocations.js';
import { ProductKeyRing } from './tokens/signing-keys.js';

/** The domain services the auth routes use, built once per instance. */
export interface AuthServices {
  idTokens: IdTokenVerifier;
  productTokens: ProductTokens;
  keys: ProductKeyRing;
  revocations: RevocationStore;
  borrowers: BorrowerRepository;
  /** The bundled identity provider, when this deployment runs it. */
  identityProvider: { issuer: string; endSessions(accountId: string): Promise<void> } | null;
}

export async function createAuthServices(
  config: Config,
  db: Kysely<ApiDatabase>,
  idp: IdentityProvider | null,
): Promise<AuthServices> {
  const keys = await ProductKeyRing.open(db);
  const bundled = config.bundledIdp;
  const trusted = [config.identityProviders.production, config.identityProviders.nonProduction].map((p) => ({
    ...p,
    localKeys: idp && bundled && p.issuer === bundled.issuer ? () => idp.publicKeys() : undefined,
  }));
  return {
    idTokens: new IdTokenVerifier(trusted),
    productTokens: new ProductTokens(keys, {
      issuer: config.publicUrl,
      ttlSeconds: config.accessTokenTtlSeconds,
    }),
    keys,
    revocations: revocationStore(db),
    borrowers: borrowerRepository(db),
    identityProvider:
      idp && bundled
        ? { issuer: bundled.issuer, endSessions: (accountId) => idp.endSessions(accountId) }
        : null,
  };
}
