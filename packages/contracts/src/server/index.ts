// What the API and the identity provider agree on as servers (not the portal's: it runs in the
// browser): the client address both count limits by, settings given as files, the second-factor
// policy, the amr of a sign-in by link, and Okta's Management API as both speak it.
export { EMAIL_LINK_AMR } from './amr.js';
export { clientAddress, networkOf, type ClientRequest } from './client-address.js';
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
  TOTP_FACTOR,
  UpdateUserBody,
  UserLocaleSchema,
  UserTimeZoneSchema,
  type OktaError,
  type OktaFactorFields,
  type OktaUserFields,
} from './okta-api.js';
