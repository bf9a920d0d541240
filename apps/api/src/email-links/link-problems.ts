import { API_ERROR_CODES, EMAIL_CHANGE_LINK_PROBLEM } from '@customer-core/contracts';
import type { LinkPurpose } from '../db/schema.js';
import { HttpError } from '../http/http-error.js';

// What a borrower is told about an e-mailed link that cannot be used: unknown, expired, used or
// replaced by a newer one all read the same, with what to do next.

const INVALID_LINK_MESSAGES: Record<LinkPurpose, string> = {
  password_reset: 'This password-reset link is invalid, has expired or was already used. Ask for a new link.',
  magic_link: 'This sign-in link is invalid, has expired or was already used. Ask for a new link.',
  email_change: EMAIL_CHANGE_LINK_PROBLEM,
  unrecognized_sign_in:
    'This link is invalid, has expired or was already used. If you’re worried about your account, reset your password.',
};

export function invalidLink(purpose: LinkPurpose): HttpError {
  return new HttpError(400, API_ERROR_CODES.invalidLink, INVALID_LINK_MESSAGES[purpose]);
}
