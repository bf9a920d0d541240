import { z } from 'zod';
import { route } from './routes.js';
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

// Adding a passkey from the account page (Bearer product access token).

export const passkeyApiPaths = {
  /** Starts adding a passkey (POST): the options for navigator.credentials.create. */
  enrol: '/api/account/factors/passkey',
  /** The browser's new credential adds it (POST), under the borrower's name for it. */
  activate: route('/api/account/factors/:factorId/activate-passkey'),
} as const;

/** The options as WebAuthn's JSON form has them (PublicKeyCredentialCreationOptionsJSON). */
export const PasskeyEnrolmentSchema = z.object({
  factorId: z.string(),
  options: z.looseObject({ challenge: z.string(), rp: z.looseObject({}), user: z.looseObject({}) }),
});
export type PasskeyEnrolment = z.infer<typeof PasskeyEnrolmentSchema>;

const Base64Url = z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/, 'base64url');

/** The new credential as Okta's activate takes it: attestation object and client data, base64url. */
export const ActivatePasskeyRequestSchema = z.object({
  name: PasskeyNameSchema,
  attestation: Base64Url.max(20_000),
  clientData: Base64Url.max(5_000),
  transports: z
    .array(z.string().regex(/^[a-z-]{1,20}$/))
    .max(8)
    .optional(),
});
export type ActivatePasskeyRequest = z.infer<typeof ActivatePasskeyRequestSchema>;

