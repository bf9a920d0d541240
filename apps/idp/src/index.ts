export {
  createIdentityProvider,
  type IdentityProvider,
  type IdentityProviderOptions,
} from './identity-provider.js';
export { idpMigrations } from './migrations.js';
export type { IdpDatabase } from './schema.js';
export { LoginAlreadyExistsError, type IdpUser, type NewUser } from './users.js';
export type { ClientOptions } from './provider.js';
