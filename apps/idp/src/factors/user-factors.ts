import type { FastifyBaseLogger } from 'fastify';
import { TOTP_FACTOR, type Factor, type FactorStore } from './factor-store.js';
import { newTotpSecret, totpStepOf } from './totp.js';

export type EnrolTotpOutcome = { kind: 'enrolled'; factor: Factor } | { kind: 'already_enrolled' };
export type ActivateOutcome =
  | { kind: 'activated'; factor: Factor }
  | { kind: 'not_found' }
  | { kind: 'already_active' }
  | { kind: 'wrong_code' };

/**
 * A user's own factors managed outside a sign-in (Okta's Factors API, and the portal in this
 * process): one authenticator app per user, enrolled pending and activated by its first code.
 */
export function userFactors(factors: FactorStore, logger: FastifyBaseLogger) {
  return {
    list: (userId: string) => factors.all(userId),

    async enrolTotp(userId: string): Promise<EnrolTotpOutcome> {
      const active = await factors.active(userId);
      if (active.some((factor) => factor.factorType === TOTP_FACTOR.factorType))
        return { kind: 'already_enrolled' };
      const factor = await factors.createPendingTotp(userId, newTotpSecret());
      logger.info({ userId, factorId: factor.id }, 'factor enrolment started');
      return { kind: 'enrolled', factor };
    },

    /** The first code confirms a pending factor; a code already taken (a replay, a race) is wrong. */
    async activate(userId: string, factorId: string, passCode: string): Promise<ActivateOutcome> {
      const factor = await factors.find(userId, factorId);
      if (!factor) return { kind: 'not_found' };
      if (factor.status === 'ACTIVE') return { kind: 'already_active' };
      const step = factor.secret ? totpStepOf(factor.secret, passCode) : undefined;
      if (step === undefined || !(await factors.claimTotpStep(factor.id, step))) {
        logger.info(
          { userId, factorId, outcome: step === undefined ? 'wrong_code' : 'used_code' },
          'factor activation refused',
        );
        return { kind: 'wrong_code' };
      }
      logger.info({ userId, factorId }, 'factor activated');
      return { kind: 'activated', factor: { ...factor, status: 'ACTIVE' } };
    },

    async remove(userId: string, factorId: string): Promise<boolean> {
      const removed = await factors.remove(userId, factorId);
      if (removed) logger.info({ userId, factorId }, 'factor removed');
      return removed;
    },
  };
}

export type UserFactors = ReturnType<typeof userFactors>;
