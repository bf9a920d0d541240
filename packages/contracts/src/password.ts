import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './credentials.js';
import { singleLineText } from './text.js';

// Password-set rules (spec section 5): issue codes length, case, number, match; the wording is ours.

export const PASSWORD_SYMBOLS = '!@#$%^&*()';

export type PasswordRuleCode = 'length' | 'case' | 'number';

/** The composition rules, in the order a checklist shows them. */
export const PASSWORD_RULES: ReadonlyArray<{
  code: PasswordRuleCode;
  label: string;
  message: string;
  test: (password: string) => boolean;
}> = [
  {
    code: 'length',
    label: `At least ${MIN_PASSWORD_LENGTH} characters`,
    message: `Use at least ${MIN_PASSWORD_LENGTH} characters.`,
    test: (p) => p.length >= MIN_PASSWORD_LENGTH,
  },
  {
    code: 'case',
    label: 'An uppercase and a lowercase letter',
    message: 'Use both an uppercase and a lowercase letter.',
    test: (p) => /\p{Lu}/u.test(p) && /\p{Ll}/u.test(p),
  },
  {
    code: 'number',
    label: `A number or one of ${PASSWORD_SYMBOLS}`,
    message: `Include a number or one of ${PASSWORD_SYMBOLS}.`,
    test: (p) => /[0-9!@#$%^&*()]/.test(p),
  },
];

export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match.';
/** A hosted identity provider's own policy may ask more than the rules above; its requirements follow. */
export const PASSWORD_REFUSED_MESSAGE =
  'Your lender\u2019s sign-in service didn\u2019t accept this password.';

/** A new password: required, within the length cap, every composition rule met. */
export const NewPasswordSchema = singleLineText()
  .min(1, { message: 'Password is required.', abort: true })
  .max(MAX_PASSWORD_LENGTH, { message: `Use at most ${MAX_PASSWORD_LENGTH} characters.`, abort: true })
  .superRefine((password, ctx) => {
    for (const rule of PASSWORD_RULES) {
      if (!rule.test(password))
        ctx.addIssue({ code: 'custom', message: rule.message, params: { code: rule.code } });
    }
  });

/** The password-set form (reset and registration): password and its confirmation. */
export const PasswordSetSchema = z
  .object({
    password: NewPasswordSchema,
    confirmPassword: singleLineText().min(1, 'Please confirm your password.'),
  })
  .superRefine(({ password, confirmPassword }, ctx) => {
    if (confirmPassword && password !== confirmPassword) {
      ctx.addIssue({
        code: 'custom',
        path: ['confirmPassword'],
        message: PASSWORDS_DO_NOT_MATCH,
        params: { code: 'match' },
      });
    }
  });
export type PasswordSet = z.infer<typeof PasswordSetSchema>;
