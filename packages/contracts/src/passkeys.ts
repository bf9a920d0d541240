import { z } from 'zod';
import {
  ACCOUNT_ERROR_CODES,
  PASSKEY_ERROR_CODES,
  SECOND_FACTOR_ERROR_CODES,
  STEP_UP_REQUIRED,
} from './api-errors.js';
import { endpoint } from './endpoint.js';
import { FactorAddedSchema } from './second-factors.js';
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

/** Adding a passkey from the account page (Bearer product access token); the list and removal are secondFactorEndpoints'. */
export const passkeyEndpoints = {
  /** Starts adding a passkey: the options for navigator.credentials.create. */
  enrol: endpoint({
    method: 'POST',
    path: '/api/account/factors/passkey',
    tag: 'account',
    summary: 'Start adding a passkey: the options for the browser, waiting for its new credential',
    access: 'borrower',
    responses: { 200: PasskeyEnrolmentSchema },
    errors: {
      400: [ACCOUNT_ERROR_CODES.noPassword],
      403: [SECOND_FACTOR_ERROR_CODES.off, PASSKEY_ERROR_CODES.withLender, STEP_UP_REQUIRED],
      // The bundled directory's answer for a borrower it no longer has.
      404: ['not_found'],
    },
  }),
  /** The browser's new credential adds it, under the borrower's name for it. */
  activate: endpoint({
    method: 'POST',
    path: '/api/account/factors/:factorId/activate-passkey',
    tag: 'account',
    summary: 'Add a passkey with the browser’s new credential, under the borrower’s name for it',
    access: 'borrower',
    body: ActivatePasskeyRequestSchema,
    responses: { 200: FactorAddedSchema },
    errors: {
      400: [PASSKEY_ERROR_CODES.refused],
      403: [SECOND_FACTOR_ERROR_CODES.off, PASSKEY_ERROR_CODES.withLender, STEP_UP_REQUIRED],
      404: ['not_found'],
      429: [ACCOUNT_ERROR_CODES.tooManyChanges],
    },
  }),
};
