import type { Factor, FactorRepository } from './factor-repository.js';
import { EMAIL_FACTOR } from '@customer-core/contracts/server';
import type { RecoveryCodeRepository } from './recovery-code-repository.js';
import { recoveryFactorId } from './recovery-codes.js';

/**
 * The factors a sign-in may be verified with. Recovery codes are listed beside a real factor, never
 * alone: a borrower with only recovery codes has no second factor. E-mail factors count only where
 * the provider can send mail.
 */
export function signInFactors(
  factors: FactorRepository,
  recoveryCodes: RecoveryCodeRepository,
  emailOffered: boolean,
) {
  const usable = (factor: Factor) => emailOffered || factor.factorType !== EMAIL_FACTOR.factorType;

  async function real(userId: string): Promise<Factor[]> {
    return (await factors.active(userId)).filter(usable);
  }

  return {
    real,
    recoveryCodesLeft: (userId: string) => recoveryCodes.remaining(userId),

    /** What MFA_REQUIRED lists: the real factors, then the recovery codes if any are left. */
    async listed(userId: string): Promise<Factor[]> {
      const active = await real(userId);
      if (active.length === 0) return [];
      const recovery = await recoveryCodes.factorOf(userId);
      return recovery ? [...active, recovery] : active;
    },

    /** The user's factor with this id that may verify a sign-in; another user's id finds nothing. */
    async find(userId: string, factorId: string): Promise<Factor | undefined> {
      if (factorId === recoveryFactorId(userId)) return recoveryCodes.factorOf(userId);
      const factor = await factors.find(userId, factorId);
      return factor?.status === 'ACTIVE' && usable(factor) ? factor : undefined;
    },
  };
}

export type SignInFactors = ReturnType<typeof signInFactors>;
