import { z } from 'zod';
import { STEP_UP_CODE_ERROR_CODES } from './api-errors.js';
import { endpoint } from './endpoint.js';
import { singleLineText } from './text.js';

// Step-up before a sensitive action (signing a loan document, changing the sign-in email address): the
// API refuses a sign-in older than this, or one without the second factor the borrower has, with this
// error code; the portal then asks again in place and retries.

/** How recent a sign-in must be for a sensitive action: 10 minutes. */
export const STEP_UP_MAX_AGE_SECONDS = 10 * 60;

/** amr values (RFC 8176) that show a second factor was used at sign-in. */
export const SECOND_FACTOR_AMR: readonly string[] = ['otp', 'mfa'];

/** An e-mailed step-up code works for 5 minutes, once. */
export const STEP_UP_CODE_TTL_SECONDS = 5 * 60;
/** Wrong tries one code takes; past them it is void and a new one must be sent. */
export const STEP_UP_CODE_MAX_TRIES = 5;
/**
 * Wrong tries a borrower's codes take together in a send window: a stolen session cannot try 5 codes
 * of 5 tries each every 15 minutes, only this many (about as many as the sign-in lockout allows).
 */
export const STEP_UP_CODE_MAX_WRONG_PER_WINDOW = 10;
/** Codes a borrower may be sent in a window: a resend button cannot flood their mailbox. */
export const STEP_UP_CODE_MAX_SENDS = 5;
export const STEP_UP_CODE_SEND_WINDOW_SECONDS = 15 * 60;

/** The ways the signed-in borrower can confirm it's them: only those they have are offered. */
export const StepUpWaysSchema = z.object({
  /** A passkey of theirs (it signs in alone: a key and its PIN or biometric are two factors). */
  passkey: z.boolean(),
  /** A code e-mailed to their sign-in address, followed by their second factor when they have one. */
  emailCode: z.boolean(),
  /** Their password (then their second factor when they have one). */
  password: z.boolean(),
});
export type StepUpWays = z.infer<typeof StepUpWaysSchema>;

export const StepUpCodeSentSchema = z.object({
  /** The sign-in address the code went to. */
  sentTo: z.string(),
});
export type StepUpCodeSent = z.infer<typeof StepUpCodeSentSchema>;

/** Any text up to a length: a code that is not 6 digits is a wrong code (counted), not a bad request. */
export const StepUpCodeRequestSchema = z.object({ code: singleLineText().max(20) });

/**
 * A right code: the session token that completes the fresh sign-in at the identity provider (then the
 * token exchange, as after a password); the state token of the second factor that comes next; or, where
 * the directory mints no session token, the product token itself.
 */
export const StepUpCodeVerifiedSchema = z.union([
  z.object({ sessionToken: z.string() }),
  z.object({ stateToken: z.string() }),
  z.object({ access_token: z.string() }),
]);
export type StepUpCodeVerified = z.infer<typeof StepUpCodeVerifiedSchema>;

export const stepUpEndpoints = {
  ways: endpoint({
    method: 'GET',
    path: '/api/account/step-up',
    tag: 'account',
    summary: 'The ways the borrower can confirm it’s them before a sensitive action',
    access: 'borrower',
    responses: { 200: StepUpWaysSchema },
  }),
  sendCode: endpoint({
    method: 'POST',
    path: '/api/account/step-up/email-code',
    tag: 'account',
    summary: 'E-mail a one-time code to the borrower’s sign-in address, for this session only',
    access: 'borrower',
    responses: { 202: StepUpCodeSentSchema },
    errors: {
      403: [STEP_UP_CODE_ERROR_CODES.notOffered],
      429: [STEP_UP_CODE_ERROR_CODES.tooManyCodes],
    },
  }),
  verifyCode: endpoint({
    method: 'POST',
    path: '/api/account/step-up/email-code/verify',
    tag: 'account',
    summary: 'Use the e-mailed code (once): a fresh sign-in, or the second factor that comes next',
    access: 'borrower',
    body: StepUpCodeRequestSchema,
    responses: { 200: StepUpCodeVerifiedSchema },
    errors: {
      400: [STEP_UP_CODE_ERROR_CODES.wrongCode, STEP_UP_CODE_ERROR_CODES.codeSpent],
      403: [STEP_UP_CODE_ERROR_CODES.notOffered],
      429: [STEP_UP_CODE_ERROR_CODES.tooManyTries],
    },
  }),
};
