// What the API and the identity provider agree on as servers (not the portal's: it runs in the
// browser): the client address both count limits by, settings given as files, the second-factor
// policy, the amr of a sign-in by link, how key pairs are made, and Okta's APIs as both speak them.
export { EMAIL_LINK_AMR } from './amr.js';
export { clientAddress, networkOf, type ClientRequest } from './client-address.js';
export { newEcKeyPair, newRsaKeyPair, type KeyPair } from './key-pairs.js';
export { MFA_POLICIES, DEFAULT_MFA_POLICY, type MfaPolicy } from './mfa-policy.js';
export { withSettingFiles } from './setting-files.js';
export {
  ActivateFactorBody,
  BLANK_FIELD,
  ChangePasswordBody,
  CreateUserBody,
  EMAIL_FACTOR,
  EnrolFactorBody,
  FACTORS_OFFERED,
  NOT_KEPT,
  oktaLocaleOf,
  TOTP_FACTOR,
  UpdateUserBody,
  UserLocaleSchema,
  UserLocaleValue,
  UserTimeZoneSchema,
  type OktaFactorFields,
  type OktaUserFields,
} from './okta-api.js';
export {
  AUTHN_STATUSES,
  AuthnAnswer,
  AuthnBody,
  LOG_EVENT_TYPES,
  LogEventSchema,
  OktaErrorSchema,
  SessionAnswer,
  StateTokenBody,
  StateTokenSchema,
  type AuthnFactorStatus,
  type AuthnStatus,
  type LogEventFields,
  type LogEventType,
  type OktaError,
} from './okta-answers.js';
