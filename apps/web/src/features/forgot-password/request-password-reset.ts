import { authEndpoints, type PasswordResetRequest } from '@customer-core/contracts';
import { apiClient, type ApiResult } from '../../lib/api-client';

/** POST /api/auth/password-reset: e-mails a reset link if the address has an account (same answer either way). */
export function requestPasswordReset(email: string): Promise<ApiResult> {
  const body: PasswordResetRequest = { email };
  return apiClient.call(authEndpoints.passwordReset, { body: body });
}
