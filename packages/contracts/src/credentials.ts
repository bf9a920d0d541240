import { z } from 'zod';
import { singleLineText } from './text.js';

// Sign-in rules and their exact messages (spec section 5).
export const MIN_PASSWORD_LENGTH = 8;
// Long passphrases are welcome; the cap keeps hashing cost bounded (argon2 input).
export const MAX_PASSWORD_LENGTH = 128;

/**
 * Consecutive wrong passwords (or codes) from one client network that pause password sign-in to an
 * account from there (the identity provider's lockout), for SIGN_IN_LOCKOUT_SECONDS. The sign-in form
 * counts its own failures against the same number to say so: it never asks whether the account exists.
 */
export const SIGN_IN_LOCKOUT_FAILURES = 10;
export const SIGN_IN_LOCKOUT_SECONDS = 15 * 60;

export const EmailSchema = singleLineText('Invalid email address.')
  .trim()
  .min(1, 'Email is required.')
  .max(254, 'Invalid email address.')
  .pipe(z.email('Invalid email address.'))
  .transform((email) => email.toLowerCase());

export const SignInSchema = z.object({
  email: EmailSchema,
  password: singleLineText()
    .min(1, { message: 'Password is required.', abort: true })
    .min(MIN_PASSWORD_LENGTH, 'Password must be at least 8 characters.')
    .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`),
});
export type SignInInput = z.input<typeof SignInSchema>;
export type SignIn = z.output<typeof SignInSchema>;
