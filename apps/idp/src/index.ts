export {
  createIdentityProvider,
  type IdentityProvider,
  type IdentityProviderOptions,
} from './identity-provider.js';
export { idpMigrations } from './migrations.js';
export { endEverySession as endEveryIdentityProviderSession } from './oidc-model-repository.js';
export { retireProviderKeys as retireIdentityProviderKeys } from './provider-key-repository.js';
export { PasswordCheckBusyError } from './password-change.js';
export { OWASP_PASSWORD_HASH_COST, passwordChecksWaiting, type PasswordHashCost } from './passwords.js';
export type { IdpMetrics, PasswordSignInOutcome } from './idp-metrics.js';
export type { IdpDatabase } from './schema.js';
export { LoginAlreadyExistsError, type IdpUser, type NewUser } from './user-repository.js';
export type { ClientOptions } from './openid-provider.js';
export type { PasswordPolicyOptions } from './password-policy.js';
export type { UsersApiRateLimit } from './users-api.js';
export type { Factor } from './factors/factor-repository.js';
export { ENROLMENT_MAX_WRONG_CODES, type UserFactors } from './factors/user-factors.js';
export type { SecurityLogEvent } from './security-log-repository.js';
export type { FactorCodeMail, FactorCodeMailer } from './factors/email-factor.js';
export { EMAIL_CODE_MAX_SENDS } from './factors/email-factor.js';
