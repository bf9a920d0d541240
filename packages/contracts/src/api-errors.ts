import { z } from 'zod';

// Every error code the API answers with, as one closed set: a code is added here or it is not one.

/** Error codes a screen tells apart (ApiError.error). */
export const API_ERROR_CODES = {
  /** Unknown, expired or used e-mailed link: reset, sign-in, invitation or verification. */
  invalidLink: 'invalid_link',
  /** The password is on the list of common passwords. */
  passwordTooCommon: 'password_too_common',
  /** The identity provider's password policy refused the password (a hosted org's may differ from ours). */
  passwordRefused: 'password_refused',
  /** The invited e-mail address already has an account. */
  alreadyRegistered: 'already_registered',
  /** Token exchange: this ID token has been exchanged already (each is accepted once). */
  idTokenUsed: 'id_token_used',
  /** Token exchange: the ID token was issued before the borrower's password change or sign-out everywhere. */
  idTokenRevoked: 'id_token_revoked',
  /** Token exchange: the identity provider session the ID token came from has ended (signed out). */
  idpSessionEnded: 'idp_session_ended',
  /** Sign-in link: the borrower's second factor cannot be asked for after a link (a hosted org). */
  linkNeedsPassword: 'link_needs_password',
} as const;

/** Why a new password is refused: a common one, or the identity provider's policy. */
export const NEW_PASSWORD_ERROR_CODES = [
  API_ERROR_CODES.passwordTooCommon,
  API_ERROR_CODES.passwordRefused,
] as const;

/** Error codes of the account routes a screen tells apart. */
export const ACCOUNT_ERROR_CODES = {
  /** The current password given is not the borrower's (or a lockout refuses it for now). */
  wrongPassword: 'wrong_password',
  /** The new password is the current one. */
  passwordUnchanged: 'password_unchanged',
  /** The borrower signs in without a password of the portal's directory: there is none to change. */
  noPassword: 'no_password',
  /** The new email address is the one the borrower signs in with already. */
  emailUnchanged: 'email_unchanged',
  /** The sign-in name lives in the lender's hosted org: the lender changes it. */
  emailChangeWithLender: 'email_change_with_lender',
  /** Too many change requests just now (per borrower and per address). */
  emailChangeLimited: 'email_change_limited',
  /** The new address became another account's sign-in name after the link was sent. */
  emailTaken: 'email_taken',
  /** Too many password or second-factor changes just now (each e-mails the borrower). */
  tooManyChanges: 'too_many_changes',
  /**
   * The borrower signs in through another identity provider than the portal's directory: there is no
   * profile here to keep their language on (the portal keeps it in the browser only).
   */
  languageNotKept: 'language_not_kept',
} as const;

/** Error codes of the factor routes a screen tells apart (a wrong password is ACCOUNT_ERROR_CODES'). */
export const SECOND_FACTOR_ERROR_CODES = {
  /** MFA_POLICY=off: second factors are not offered. */
  off: 'second_factors_off',
  /** The code is not the app's current one, or was used already. */
  wrongCode: 'wrong_code',
  /** The factor being added has taken as many wrong codes as it may: it must be started again. */
  tooManyWrongCodes: 'too_many_wrong_codes',
  /** The directory does not offer this kind of factor. */
  notOffered: 'factor_not_offered',
  /** Too many codes mailed for now. */
  tooManyCodes: 'too_many_codes',
  /** The borrower has a factor of this kind already. */
  alreadyAdded: 'factor_already_added',
  /** MFA_POLICY=required and this is the borrower's last factor. */
  lastFactor: 'last_factor',
} as const;

/** Error codes of the passkey routes a screen tells apart. */
export const PASSKEY_ERROR_CODES = {
  /** A hosted org: passkeys are added with the lender. */
  withLender: 'passkeys_with_lender',
  /** The browser's credential did not verify (another site, no user verification, one already added). */
  refused: 'passkey_refused',
} as const;

/** The error code of a step-up refusal: the portal answers it with a fresh sign-in. */
export const STEP_UP_REQUIRED = 'step_up_required';

/** Error codes of a step-up by e-mailed code that the dialog tells apart. */
export const STEP_UP_CODE_ERROR_CODES = {
  /** Not the code sent last, or it expired. */
  wrongCode: 'step_up_wrong_code',
  /** The code has taken its wrong tries (or none was sent to this session): a new one is needed. */
  codeSpent: 'step_up_code_spent',
  /** Too many codes sent just now. */
  tooManyCodes: 'step_up_too_many_codes',
  /** Too many wrong codes in the send window: none is checked until it has passed. */
  tooManyTries: 'step_up_too_many_tries',
  /** No e-mailed code for this borrower (a second factor the directory cannot ask for after one). */
  notOffered: 'step_up_code_not_offered',
} as const;

/** Why the staff console refuses a sign-in. */
export const CONSOLE_ERROR_CODES = {
  /** The identity is not in a staff group of the console (a borrower, or staff without a role). */
  notStaff: 'not_staff',
  /** The sign-in did not use a second factor: staff always need one. */
  secondFactorRequired: 'second_factor_required',
  /** Staff users live in the lender's hosted org: they are managed there. */
  staffWithProvider: 'staff_with_provider',
} as const;

/** Codes any endpoint may answer with, whatever it does (the error handler's, the rate limiter's). */
export const GENERIC_ERROR_CODES = {
  400: ['bad_request'],
  413: ['payload_too_large'],
  415: ['unsupported_media_type'],
  429: ['too_many_requests'],
  500: ['internal_error'],
  503: ['service_unavailable'],
} as const;

/** Codes of the access checks in front of a route (see Endpoint.access). */
export const ACCESS_ERROR_CODES = {
  public: {},
  /** 403: a staff console's token, which never opens the borrower's API. */
  borrower: { 400: ['malformed_token'], 401: ['unauthorized', 'invalid_token'], 403: ['forbidden'] },
  service: { 401: ['unauthorized'], 403: ['forbidden'] },
  /**
   * The operators' API: the operator service credential, or a staff member's console token. 403: a
   * borrower's token, a role that may not make the call, or (step_up_required) a sign-in too old for it.
   */
  operator: { 401: ['unauthorized', 'invalid_token'], 403: ['forbidden', STEP_UP_REQUIRED] },
} as const;

/** Why a step of a loan's checkout is refused: the loan's state does not allow it (yet). */
export const CHECKOUT_ERROR_CODES = [
  'checkout_unavailable',
  'no_documents',
  'checkout_not_started',
  'not_reviewed',
  'no_signature_needed',
  'already_signed',
] as const;

/** Why a signature is refused, so the screen can say what to do. */
export const SIGNING_ERROR_CODES = {
  /** The name typed is not the account's name (compared leniently: see signatureNameMatches). */
  nameMismatch: 'signature_name_mismatch',
  /** The account has no name to compare a signature with. */
  noAccountName: 'no_account_name',
  /** The borrower has not agreed to sign electronically (to the current consent text). */
  consentRequired: 'esign_consent_required',
  /** The consent given is not the current text's version. */
  consentOutdated: 'esign_consent_outdated',
} as const;

/** Codes of one endpoint's own refusals, not named by a screen. */
const OTHER_ERROR_CODES = [
  'not_found',
  'malformed_token',
  'invalid_token',
  'unauthorized',
  'forbidden',
  'current_session',
  'recovery_codes_not_offered',
  ...CHECKOUT_ERROR_CODES,
  'not_signed',
  'reference_taken',
  'contradictory_terms',
  /** An erasure refused: a legal hold keeps the borrower's data. */
  'legal_hold',
  /** A payment file exported before: again only when forced. */
  'already_exported',
] as const;

/** Why a payment, a bank account or autopay is refused, so the screen can say what to do. */
export const PAYMENT_ERROR_CODES = {
  accountExists: 'bank_account_exists',
  tooManyAccounts: 'too_many_bank_accounts',
  /** No micro-deposits to check (not sent yet, or the account is past verifying). */
  notVerifiable: 'verification_unavailable',
  wrongAmounts: 'wrong_amounts',
  /** The account is not verified (or was disabled by a return). */
  accountNotUsable: 'bank_account_not_usable',
  /** A payment on its way, or autopay, uses the account. */
  accountInUse: 'bank_account_in_use',
  overPayoff: 'amount_over_payoff',
  overLimit: 'amount_over_limit',
  overDailyLimit: 'daily_limit_reached',
  dateUnavailable: 'date_unavailable',
  /** The authorization accepted is not the one the facts make now (another version, other figures). */
  authorizationOutdated: 'authorization_outdated',
  /** The idempotency key came with another payment before. */
  keyReused: 'idempotency_key_reused',
  /** Past its cut-off, or not scheduled any more. */
  notCancellable: 'not_cancellable',
  /** The loan is paid off or closed. */
  loanNotPayable: 'loan_not_payable',
} as const;
export type PaymentRefusal = (typeof PAYMENT_ERROR_CODES)[keyof typeof PAYMENT_ERROR_CODES];

export const ApiErrorCodeSchema = z.enum([
  ...Object.values(API_ERROR_CODES),
  ...Object.values(ACCOUNT_ERROR_CODES),
  ...Object.values(SECOND_FACTOR_ERROR_CODES),
  ...Object.values(PASSKEY_ERROR_CODES),
  ...Object.values(SIGNING_ERROR_CODES),
  STEP_UP_REQUIRED,
  ...Object.values(STEP_UP_CODE_ERROR_CODES),
  ...Object.values(CONSOLE_ERROR_CODES),
  ...Object.values(GENERIC_ERROR_CODES).flat(),
  ...OTHER_ERROR_CODES,
  ...Object.values(PAYMENT_ERROR_CODES),
]);
export type ApiErrorCode = z.infer<typeof ApiErrorCodeSchema>;

/** Why an access token was refused (validate, refresh, and every Bearer call). */
export const TokenRefusalReasonSchema = z.enum([
  'malformed',
  'unsupported_algorithm',
  'bad_signature',
  'wrong_issuer',
  'wrong_audience',
  'expired',
  'revoked',
  'session_expired',
  /** A newer token of the same session replaced it (refreshed): the holder should use that one. */
  'superseded',
]);
export type TokenRefusalReason = z.infer<typeof TokenRefusalReasonSchema>;

/** Body of every 4xx/5xx answer of the API. 5xx bodies carry only a generic message and the request id. */
export const ApiErrorSchema = z.object({
  error: ApiErrorCodeSchema,
  message: z.string(),
  /** For refused access tokens: which check failed. */
  reason: TokenRefusalReasonSchema.optional(),
  requestId: z.string().optional(),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;
