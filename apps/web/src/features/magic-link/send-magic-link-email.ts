import { authEndpoints, type SendMagicLinkRequest } from '@customer-core/contracts';
import { apiClient, type ApiResult } from '../../lib/api-client';
import { readSavedReturnPath } from '../../lib/return-path';

/**
 * POST /api/auth/send-magic-link-email: e-mails a sign-in link if the address has an account. The link
 * carries the address the borrower was on their way to, if any, since it may be opened in another tab.
 */
export function sendMagicLinkEmail(email: string): Promise<ApiResult> {
  const returnTo = readSavedReturnPath();
  const body: SendMagicLinkRequest = returnTo ? { email, returnTo } : { email };
  return apiClient.call(authEndpoints.sendMagicLinkEmail, { body: body });
}
