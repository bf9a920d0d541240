// Passwords the API refuses wherever one is chosen (registration, a reset link, a change), and how.

/** Each breaks one rule; the message the API gives for it under the password field. */
export const WEAK_PASSWORDS: ReadonlyArray<readonly [password: string, message: RegExp]> = [
  ['Ab1', /password: Use at least 8 characters\./],
  ['lowercase-only-1', /password: Use both an uppercase and a lowercase letter\./],
  ['NoDigitsOrSymbols', /password: Include a number or one of !@#\$%\^&\*\(\)/],
  ['', /password: Password is required\./],
  [`Aa1${'x'.repeat(126)}`, /password: Use at most 128 characters\./],
];

/** On the common-password list, though each meets every rule. */
export const COMMON_PASSWORDS = ['Password1', 'Qwerty123', 'P@ssw0rd1', 'Summer2024!', 'Welcome1'];

/** The answer to a common password. */
export const TOO_COMMON_ANSWER = {
  error: 'password_too_common',
  message: 'This password is too common. Choose another.',
};
