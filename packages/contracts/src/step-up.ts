// Step-up before a sensitive action (signing a loan document, changing the sign-in email address): the
// API refuses a sign-in older than this, or one without the second factor the borrower has, with this
// error code; the portal then asks again in place and retries.

/** How recent a sign-in must be for a sensitive action: 10 minutes. */
export const STEP_UP_MAX_AGE_SECONDS = 10 * 60;

/** amr values (RFC 8176) that show a second factor was used at sign-in. */
export const SECOND_FACTOR_AMR: readonly string[] = ['otp', 'mfa'];
