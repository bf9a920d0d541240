export {
  createIdentityProvider,
  type IdentityProvider,
  type IdentityProviderOptions,
} from './identity-provider.js';
export { idpMigrations } from './migrations.js';
export { PasswordCheckBusyError } from './password-change.js';
// The API keys its own rate limits on the same client address as the provider's lockout.
export { clientAddress, networkOf } from './client-address.js';
export type { IdpDatabase } from './schema.js';
export { LoginAlreadyExistsError, type IdpUser, type NewUser } from './users.js';
export type { ClientOptions } from './openid-provider.js';
export type { PasswordPolicyOptions } from './password-policy.js';
export type { UsersApiRateLimit } from './users-api.js';
export { MFA_POLICIES, DEFAULT_MFA_POLICY, type MfaPolicy } from './factors/mfa-policy.js';
export type { Factor } from './factors/factor-store.js';
export { ENROLMENT_MAX_WRONG_CODES, type UserFactors } from './factors/user-factors.js';
export type { SecurityLogEvent } from './security-log.js';
export { EMAIL_LINK_AMR } from './factors/authn-transactions.js';
export type { FactorCodeMail, FactorCodeMailer } from './factors/email-factor.js';
export { EMAIL_CODE_MAX_SENDS, EMAIL_FACTOR } from './factors/email-factor.js';
