import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** What a borrower reads when a factor step is refused, by Okta's error code (in their language when shown). */
export const WRONG_CODE = msg`That code didn’t work. Check your app and enter the code it shows now.`;
export const CODE_REQUIRED = msg`Enter the 6-digit code from your app.`;
export const STEP_EXPIRED = msg`Your sign-in took too long. Please sign in again.`;
export const LOCKED = msg`User could not be authenticated.`;

export function errorCodeOf(error: unknown): string | undefined {
  const code = (error as { errorCode?: unknown } | null)?.errorCode;
  return typeof code === 'string' ? code : undefined;
}
export const EMAIL_CODE_REQUIRED = msg`Enter the 6-digit code from your email.`;
export const WRONG_EMAIL_CODE = msg`That code didn’t work. Check your email and enter the newest code. Codes work for 5 minutes.`;
export const TOO_MANY_CODES = msg`We’ve sent several codes just now. Use the newest one, or try again in 15 minutes.`;
export const RECOVERY_CODE_REQUIRED = msg`Enter a recovery code.`;
export const WRONG_RECOVERY_CODE = msg`That recovery code didn’t work. Check it, or try another one. Each code works once.`;

/** A refused step: a message under the field, or back to the password form with a message. */
export interface Refusal {
  kind: 'field' | 'restart';
  message: MessageDescriptor;
}

/** What a refused code means for the borrower, by Okta's error code; `wrongCode` is the form's own. */
export function refusalOf(failure: unknown, wrongCode: MessageDescriptor): Refusal {
  switch (errorCodeOf(failure)) {
    case 'E0000068':
      return { kind: 'field', message: wrongCode };
    case 'E0000047':
      return { kind: 'field', message: TOO_MANY_CODES };
    case 'E0000011':
      return { kind: 'restart', message: STEP_EXPIRED };
    default:
      return { kind: 'restart', message: LOCKED };
  }
}
