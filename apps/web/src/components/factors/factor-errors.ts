/** What a borrower reads when a factor step is refused, by Okta's error code. */
export const WRONG_CODE = 'That code didn\u2019t work. Check your app and enter the code it shows now.';
export const CODE_REQUIRED = 'Enter the 6-digit code from your app.';
export const STEP_EXPIRED = 'Your sign-in took too long. Please sign in again.';
export const LOCKED = 'User could not be authenticated.';

export function errorCodeOf(error: unknown): string | undefined {
  const code = (error as { errorCode?: unknown } | null)?.errorCode;
  return typeof code === 'string' ? code : undefined;
}
