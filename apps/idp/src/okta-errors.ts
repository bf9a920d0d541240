import { randomBytes } from 'node:crypto';
import type { OktaError } from '@customer-core/contracts/server';

export function oktaError(errorCode: string, errorSummary: string, causes: string[] = []): OktaError {
  return {
    errorCode,
    errorSummary,
    errorLink: errorCode,
    // A correlation id the user can quote; it is also written to the log line.
    errorId: `oae${randomBytes(16).toString('base64url')}`,
    errorCauses: causes.map((errorSummary) => ({ errorSummary })),
  };
}

export const authenticationFailed = () => oktaError('E0000004', 'Authentication failed');
export const malformedRequest = (causes: string[] = []) =>
  oktaError('E0000003', 'The request body was not well-formed.', causes);
export const rateLimited = () =>
  oktaError('E0000047', 'API call exceeded rate limit due to too many requests.');
export const forbidden = () =>
  oktaError('E0000006', 'You do not have permission to perform the requested action');
export const internalError = () => oktaError('E0000009', 'Internal Server Error');
// Okta names no code of its own for an overloaded server; E0000009 is its code for trouble on its side.
export const serviceBusy = () => oktaError('E0000009', 'The service is busy. Try again in a few seconds.');
/** The database is unreachable for a moment (answered 503 with Retry-After). */
export const temporarilyUnavailable = () =>
  oktaError('E0000009', 'The service is temporarily unavailable. Please try again shortly.');

// The Users API's answers (Okta's Management API).
/** A field refused: Okta names the first field in the summary and every refusal in the causes. */
export const apiValidationFailed = (field: string, causes: string[]) =>
  oktaError('E0000001', `Api validation failed: ${field}`, causes);
export const resourceNotFound = (name: string, type: string) =>
  oktaError('E0000007', `Not found: Resource not found: ${name} (${type})`);
export const invalidToken = () => oktaError('E0000011', 'Invalid token provided');

// The Authentication API's factor steps.
export const invalidPasscode = () =>
  oktaError('E0000068', 'Invalid Passcode/Answer', [
    "Your passcode doesn't match our records. Please try again.",
  ]);
export const operationNotAllowed = () =>
  oktaError('E0000079', 'This operation is not allowed in the current authentication state.');
export const userLocked = () => oktaError('E0000069', 'User Locked');
/** Factors API: a pending factor has taken its wrong codes; it must be enrolled again (403). */
export const enrolmentLocked = () =>
  oktaError('E0000069', 'User Locked', ['Too many wrong codes for this factor. Enroll it again.']);
/** Change password: the old password given is not the user's (403). */
export const credentialsUpdateFailed = (causes: string[]) =>
  oktaError('E0000014', 'Update of credentials failed', causes);
