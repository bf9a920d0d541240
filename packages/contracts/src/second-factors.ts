import { z } from 'zod';
import { MAX_PASSWORD_LENGTH } from './credentials.js';
import { ACCOUNT_ERROR_CODES, SECOND_FACTOR_ERROR_CODES, STEP_UP_REQUIRED } from './api-errors.js';
import { EmailCodeEnrolmentSchema } from './email-codes.js';
import { endpoint } from './endpoint.js';
import { singleLineText } from './text.js';

// The borrower's second factors on the account page (Bearer product access token).

/**
 * The kinds of factor the portal manages: an authenticator app (Okta's `token:software:totp`), codes
 * by email (Okta's `email`) and a passkey (Okta's `webauthn`; see passkeys.ts).
 */
export const SecondFactorTypeSchema = z.enum(['authenticator_app', 'email_code', 'passkey']);
export type SecondFactorType = z.infer<typeof SecondFactorTypeSchema>;

export const SECOND_FACTOR_LABELS: Record<SecondFactorType, string> = {
  authenticator_app: 'Authenticator app',
  email_code: 'Email codes',
  passkey: 'Passkey',
};

export const SecondFactorSchema = z.object({
  id: z.string(),
  type: SecondFactorTypeSchema,
  addedAt: z.string(),
  /** When it last verified a sign-in; null before its first use. */
  lastUsedAt: z.string().nullable(),
  /** What the borrower called it (passkeys); absent when it has no name. */
  name: z.string().optional(),
});
export type SecondFactor = z.infer<typeof SecondFactorSchema>;

export const SecondFactorListSchema = z.object({
  factors: z.array(SecondFactorSchema),
  /** `required`: sign-in always asks for a factor, so the last one cannot be removed. */
  policy: z.enum(['optional', 'required']),
  /** Whether passkeys are added here (the bundled provider), or with the lender (a hosted org). */
  passkeysAddedHere: z.boolean().optional(),
});
export type SecondFactorList = z.infer<typeof SecondFactorListSchema>;

/** A factor's id as the directory names it: letters and digits. */
export const FactorIdParamsSchema = z.object({
  factorId: z.string().regex(/^[A-Za-z0-9]{1,64}$/, 'The factor id is not well-formed.'),
});

export const AuthenticatorAppEnrolmentSchema = z.object({
  factorId: z.string(),
  /** Base32, for the QR code drawn on the page and for entering by hand. */
  sharedSecret: z.string(),
  /** What the app names the account by: the borrower's email address. */
  accountName: z.string(),
});
export type AuthenticatorAppEnrolment = z.infer<typeof AuthenticatorAppEnrolmentSchema>;

export const ActivateFactorRequestSchema = z.object({
  code: z.string().regex(/^\d{6}$/, 'Enter the 6-digit code.'),
});
export type ActivateFactorRequest = z.infer<typeof ActivateFactorRequestSchema>;

export const RemoveFactorRequestSchema = z.object({
  currentPassword: singleLineText()
    .min(1, 'Enter your current password.')
    .max(MAX_PASSWORD_LENGTH, 'That isn’t your current password.'),
});
export type RemoveFactorRequest = z.infer<typeof RemoveFactorRequestSchema>;

/** Mailing another code for email codes being added: done. */
export const CodeSentSchema = z.object({ sent: z.literal(true) });
/** A factor (an authenticator app, email codes, a passkey) is added. */
export const FactorAddedSchema = z.object({ added: z.literal(true) });
/** A factor is removed. */
export const FactorRemovedSchema = z.object({ removed: z.literal(true) });

// Every factor route answers 403 second_factors_off under MFA_POLICY=off, and 404 for a factor id
// that is unknown, another borrower's or malformed.
const FACTORS_OFF = [SECOND_FACTOR_ERROR_CODES.off] as const;
/** Adding a way to sign in needs a recent sign-in (see step-up.ts), as changing the email does. */
const ADDING_REFUSALS = [SECOND_FACTOR_ERROR_CODES.off, STEP_UP_REQUIRED] as const;

/** The borrower's second factors (Bearer product access token); passkeys add theirs in passkeys.ts. */
export const secondFactorEndpoints = {
  /** The borrower's active factors. */
  list: endpoint({
    method: 'GET',
    path: '/api/account/factors',
    tag: 'account',
    summary: 'The borrower’s second factors (authenticator apps), oldest first',
    access: 'borrower',
    responses: { 200: SecondFactorListSchema },
    errors: { 403: FACTORS_OFF },
  }),
  /** Starts adding an authenticator app: its shared secret, pending its first code. */
  enrolAuthenticatorApp: endpoint({
    method: 'POST',
    path: '/api/account/factors/authenticator-app',
    tag: 'account',
    summary: 'Start adding an authenticator app: its shared secret, waiting for a first code',
    access: 'borrower',
    responses: { 200: AuthenticatorAppEnrolmentSchema },
    errors: {
      400: [ACCOUNT_ERROR_CODES.noPassword, SECOND_FACTOR_ERROR_CODES.alreadyAdded],
      403: ADDING_REFUSALS,
    },
  }),
  /** The first code from the app (or the mailed code of email codes) confirms it. */
  activate: endpoint({
    method: 'POST',
    path: '/api/account/factors/:factorId/activate',
    tag: 'account',
    summary: 'Confirm an authenticator app with the first code it shows',
    access: 'borrower',
    body: ActivateFactorRequestSchema,
    responses: { 200: FactorAddedSchema },
    errors: {
      400: [SECOND_FACTOR_ERROR_CODES.wrongCode, SECOND_FACTOR_ERROR_CODES.tooManyWrongCodes],
      403: ADDING_REFUSALS,
      404: ['not_found'],
      429: [ACCOUNT_ERROR_CODES.tooManyChanges],
    },
  }),
  /** Starts adding email codes: a code mailed to the sign-in address, pending its entry. */
  enrolEmail: endpoint({
    method: 'POST',
    path: '/api/account/factors/email',
    tag: 'account',
    summary: 'Start adding email codes: a code mailed to the sign-in address, waiting for its entry',
    access: 'borrower',
    responses: { 200: EmailCodeEnrolmentSchema },
    errors: {
      400: [
        ACCOUNT_ERROR_CODES.noPassword,
        SECOND_FACTOR_ERROR_CODES.alreadyAdded,
        SECOND_FACTOR_ERROR_CODES.notOffered,
      ],
      403: ADDING_REFUSALS,
      // The bundled directory's answer for a borrower it no longer has.
      404: ['not_found'],
      429: [SECOND_FACTOR_ERROR_CODES.tooManyCodes],
    },
  }),
  /** Mails another code for email codes being added. */
  resendCode: endpoint({
    method: 'POST',
    path: '/api/account/factors/:factorId/resend',
    tag: 'account',
    summary: 'Mail another code for email codes being added (a few per 15 minutes)',
    access: 'borrower',
    responses: { 200: CodeSentSchema },
    errors: { 403: FACTORS_OFF, 404: ['not_found'], 429: [SECOND_FACTOR_ERROR_CODES.tooManyCodes] },
  }),
  /** Removes a factor, proving the current password. */
  remove: endpoint({
    method: 'POST',
    path: '/api/account/factors/:factorId/remove',
    tag: 'account',
    summary: 'Remove a second factor, proving the current password',
    access: 'borrower',
    body: RemoveFactorRequestSchema,
    responses: { 200: FactorRemovedSchema },
    errors: {
      400: [SECOND_FACTOR_ERROR_CODES.lastFactor, ACCOUNT_ERROR_CODES.wrongPassword],
      403: FACTORS_OFF,
      404: ['not_found'],
      429: [ACCOUNT_ERROR_CODES.tooManyChanges],
    },
  }),
};
