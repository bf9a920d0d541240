import { SignInSchema, type SignIn, type SignInInput } from '@customer-core/contracts';

// Loaded apart from the form, on the borrower's first use of it: zod is not needed before.

export type SignInField = keyof SignInInput;
export type SignInErrors = Partial<Record<SignInField, string>>;

/** The sign-in rules applied to what was typed: the credentials to send, or each field's first message. */
export function checkSignIn(values: SignInInput): { credentials: SignIn } | { errors: SignInErrors } {
  const result = SignInSchema.safeParse(values);
  if (result.success) return { credentials: result.data };
  const errors: SignInErrors = {};
  for (const { path, message } of result.error.issues) {
    const field = path[0];
    if ((field === 'email' || field === 'password') && errors[field] === undefined) errors[field] = message;
  }
  return { errors };
}
