import { z } from 'zod';
import { MAX_PASSWORD_LENGTH } from './credentials.js';
import { route } from './routes.js';
import { singleLineText } from './text.js';

// The borrower's second factors on the account page (Bearer product access token).

export const secondFactorApiPaths = {
  /** The borrower's active factors (GET). */
  list: '/api/account/factors',
  /** Starts adding an authenticator app (POST): its shared secret, pending its first code. */
  enrolAuthenticatorApp: '/api/account/factors/authenticator-app',
  /** The first code from the app confirms it (POST). */
  activate: route('/api/account/factors/:factorId/activate'),
  /** Starts adding email codes (POST): a code mailed to the sign-in address, pending its entry. */
  enrolEmail: '/api/account/factors/email',
  /** Mails another code for email codes being added (POST). */
  resendCode: route('/api/account/factors/:factorId/resend'),
  /** Removes a factor (POST), proving the current password. */
  remove: route('/api/account/factors/:factorId/remove'),
} as const;

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

