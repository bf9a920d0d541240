import { z } from 'zod';
import { RemoveFactorRequestSchema } from './second-factors.js';

// Recovery codes: single-use codes a borrower keeps on paper for when their second factor is out of
// reach. Offered only with the bundled identity provider, once the borrower has a second factor.

export const recoveryCodeApiPaths = {
  /** Whether they are offered and how many are left (GET). */
  status: '/api/account/recovery-codes',
  /** A new set, replacing any before it (POST), proving the current password. */
  generate: '/api/account/recovery-codes/generate',
} as const;

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
