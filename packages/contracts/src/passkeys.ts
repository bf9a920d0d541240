import { singleLineText } from './text.js';

/** Okta's WebAuthn factor type: a passkey or security key, as the identity provider names it. */
export const WEBAUTHN_FACTOR_TYPE = 'webauthn';

/**
 * Passkey sign-in without a password, at the bundled identity provider (no Okta API has it): the
 * options for navigator.credentials.get, then the assertion, answered like a SUCCESS transaction.
 */
export const passkeySignInPaths = {
  options: '/api/v1/authn/passkey/options',
  verify: '/api/v1/authn/passkey/verify',
} as const;

/** The errorCode of a passkey sign-in whose passkey no account has (removed, or another site's copy). */
export const UNKNOWN_PASSKEY_ERROR_CODE = 'E0000004';
/** Its errorCauses' summary, which tells it from a refused assertion (the same errorCode). */
export const UNKNOWN_PASSKEY_CAUSE = 'unknown_passkey';

export const MAX_PASSKEY_NAME_LENGTH = 60;

/** What the borrower calls a passkey on the account page. */
export const PasskeyNameSchema = singleLineText()
  .trim()
  .min(1, 'Enter a name for this passkey.')
  .max(MAX_PASSKEY_NAME_LENGTH, `Use ${MAX_PASSKEY_NAME_LENGTH} characters or fewer.`);
