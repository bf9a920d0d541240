import { EMAIL_FACTOR } from '@customer-core/contracts/server';
import type { EmailCodeRepository } from './email-code-repository.js';
import type { Factor, FactorRepository } from './factor-repository.js';
import type { RecoveryCodeRepository } from './recovery-code-repository.js';
import { RECOVERY_CODE_FACTOR } from './recovery-codes.js';
import { totpStepOf } from './totp.js';

/** Why a code was refused, for the log: never the code. */
export type CodeOutcome = 'accepted' | 'wrong_code' | 'used_code';

/**
 * Checks a code against a factor of any type this provider verifies by code, taking it if right:
 * an authenticator app's time step, an e-mailed code or a recovery code is accepted once, and a
 * pending factor is activated by its first code.
 */
export function factorCodes(
  factors: FactorRepository,
  emailCodes: EmailCodeRepository,
  recoveryCodes: RecoveryCodeRepository,
) {
  return async function check(factor: Factor, passCode: string): Promise<CodeOutcome> {
    switch (factor.factorType) {
      case EMAIL_FACTOR.factorType: {
        if (!(await emailCodes.claim(factor.id, passCode))) return 'wrong_code';
        await factors.codeAccepted(factor.id);
        return 'accepted';
      }
      case RECOVERY_CODE_FACTOR.factorType:
        return (await recoveryCodes.claim(factor.userId, passCode)) ? 'accepted' : 'wrong_code';
      default: {
        const step = factor.secret ? totpStepOf(factor.secret, passCode) : undefined;
        if (step === undefined) return 'wrong_code';
        // A code already used (replayed, or raced by a second request) is refused like a wrong one.
        return (await factors.claimTotpStep(factor.id, step)) ? 'accepted' : 'used_code';
      }
    }
  };
}

export type CheckFactorCode = ReturnType<typeof factorCodes>;
