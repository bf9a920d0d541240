import { z } from 'zod';
import { ACCOUNT_ERROR_CODES, SECOND_FACTOR_ERROR_CODES } from './api-errors.js';
import { endpoint } from './endpoint.js';
import { RemoveFactorRequestSchema } from './second-factors.js';

// Recovery codes: single-use codes a borrower keeps on paper for when their second factor is out of
// reach. Offered only with the bundled identity provider, once the borrower has a second factor.

export const RECOVERY_CODE_COUNT = 10;

export const RecoveryCodeStatusSchema = z.object({
  /** False with a hosted org, or before the borrower has a second factor. */
  offered: z.boolean(),
  /** Unused codes left. */
  remaining: z.number().int().min(0),
});
export type RecoveryCodeStatus = z.infer<typeof RecoveryCodeStatusSchema>;

export const GenerateRecoveryCodesRequestSchema = RemoveFactorRequestSchema;
export type GenerateRecoveryCodesRequest = z.infer<typeof GenerateRecoveryCodesRequestSchema>;

/** Shown once: only their hashes are kept. */
export const RecoveryCodesSchema = z.object({ codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof RecoveryCodesSchema>;

/** The borrower's recovery codes (Bearer product access token); 403 second_factors_off under MFA_POLICY=off. */
export const recoveryCodeEndpoints = {
  /** Whether they are offered and how many are left. */
  status: endpoint({
    method: 'GET',
    path: '/api/account/recovery-codes',
    tag: 'account',
    summary: 'Whether recovery codes are offered to the borrower, and how many are left',
    access: 'borrower',
    responses: { 200: RecoveryCodeStatusSchema },
    errors: { 403: [SECOND_FACTOR_ERROR_CODES.off] },
  }),
  /** A new set, replacing any before it, proving the current password. */
  generate: endpoint({
    method: 'POST',
    path: '/api/account/recovery-codes/generate',
    tag: 'account',
    summary: 'A new set of recovery codes, shown once, replacing the old set; proves the current password',
    access: 'borrower',
    body: GenerateRecoveryCodesRequestSchema,
    responses: { 200: RecoveryCodesSchema },
    errors: {
      400: ['recovery_codes_not_offered', ACCOUNT_ERROR_CODES.noPassword, ACCOUNT_ERROR_CODES.wrongPassword],
      403: [SECOND_FACTOR_ERROR_CODES.off],
      429: [ACCOUNT_ERROR_CODES.tooManyChanges],
    },
  }),
};
