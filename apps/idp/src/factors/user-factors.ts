import type { FastifyBaseLogger } from 'fastify';
import { EMAIL_FACTOR, TOTP_FACTOR } from '@customer-core/contracts/server';
import type { IdpUser } from '../user-repository.js';
import type { EmailCodeSender } from './email-factor-routes.js';
import type { CheckFactorCode } from './factor-codes.js';
import type { Factor, FactorRepository } from './factor-repository.js';
import type { RecoveryCodeRepository } from './recovery-code-repository.js';
import { newTotpSecret } from './totp.js';

import { ACCOUNT_MAX_FAILURES } from '../login-failure-repository.js';

/** Wrong first codes one enrolment takes before it must be started again: as many as an account takes. */
export const ENROLMENT_MAX_WRONG_CODES = ACCOUNT_MAX_FAILURES;

export type EnrolTotpOutcome = { kind: 'enrolled'; factor: Factor } | { kind: 'already_enrolled' };
export type EnrolEmailOutcome = EnrolTotpOutcome | { kind: 'not_offered' } | { kind: 'too_many_codes' };
export type ResendOutcome = { kind: 'sent' } | { kind: 'not_found' } | { kind: 'too_many_codes' };
export type ActivateOutcome =
  | { kind: 'activated'; factor: Factor }
  | { kind: 'not_found' }
  | { kind: 'already_active' }
  | { kind: 'wrong_code' }
  /** The enrolment has taken its wrong codes: refused even with the right one until started again. */
  | { kind: 'too_many_wrong_codes' };

/**
 * A user's own factors managed outside a sign-in (Okta's Factors API, and the portal in this
 * process): one authenticator app and one e-mail factor per user, each enrolled pending and
 * activated by its first code; and the recovery codes beside them.
 */
export function userFactors(deps: {
  factors: FactorRepository;
  checkCode: CheckFactorCode;
  recoveryCodes: RecoveryCodeRepository;
  /** Absent where the provider cannot send mail: no e-mail factors then. */
  sendEmailCode: EmailCodeSender | undefined;
  logger: FastifyBaseLogger;
}) {
  const { factors, checkCode, recoveryCodes, sendEmailCode, logger } = deps;

  const hasActive = async (userId: string, factorType: string) =>
    (await factors.active(userId)).some((factor) => factor.factorType === factorType);

  return {
    list: (userId: string) => factors.all(userId),

    /** Whether e-mail factors are offered (the provider can send mail). */
    emailOffered: sendEmailCode !== undefined,

    async enrolTotp(userId: string): Promise<EnrolTotpOutcome> {
      if (await hasActive(userId, TOTP_FACTOR.factorType)) return { kind: 'already_enrolled' };
      const factor = await factors.createPendingTotp(userId, newTotpSecret());
      logger.info({ userId, factorId: factor.id }, 'factor enrolment started');
      return { kind: 'enrolled', factor };
    },

    /** A pending e-mail factor for the user's login address, its first code mailed. */
    async enrolEmail(user: IdpUser): Promise<EnrolEmailOutcome> {
      if (!sendEmailCode) return { kind: 'not_offered' };
      if (await hasActive(user.id, EMAIL_FACTOR.factorType)) return { kind: 'already_enrolled' };
      const factor = await factors.createPending(user.id, EMAIL_FACTOR, null);
      logger.info({ userId: user.id, factorId: factor.id }, 'factor enrolment started');
      if (!(await sendEmailCode(user, factor, 'enrol'))) return { kind: 'too_many_codes' };
      await factors.newFirstCode(factor.id);
      return { kind: 'enrolled', factor };
    },

    /** Another code for a pending e-mail factor, within the send limit. */
    async resendEmailCode(user: IdpUser, factorId: string): Promise<ResendOutcome> {
      const factor = await factors.find(user.id, factorId);
      if (
        !sendEmailCode ||
        factor?.factorType !== EMAIL_FACTOR.factorType ||
        factor.status !== 'PENDING_ACTIVATION'
      )
        return { kind: 'not_found' };
      return (await sendEmailCode(user, factor, 'enrol')) ? { kind: 'sent' } : { kind: 'too_many_codes' };
    },

    /**
     * The first code confirms a pending factor; a code already taken (a replay, a race) is wrong.
     * Each enrolment takes at most ENROLMENT_MAX_WRONG_CODES codes, counted before each is checked.
     */
    async activate(userId: string, factorId: string, passCode: string): Promise<ActivateOutcome> {
      const factor = await factors.find(userId, factorId);
      if (!factor) return { kind: 'not_found' };
      if (factor.status === 'ACTIVE') return { kind: 'already_active' };
      if (!(await factors.reserveFirstCode(factor.id, ENROLMENT_MAX_WRONG_CODES))) {
        logger.warn({ userId, factorId }, 'factor activation refused: too many wrong codes');
        return { kind: 'too_many_wrong_codes' };
      }
      const outcome = await checkCode(factor, passCode);
      if (outcome !== 'accepted') {
        logger.info({ userId, factorId, outcome }, 'factor activation refused');
        return { kind: 'wrong_code' };
      }
      logger.info({ userId, factorId }, 'factor activated');
      return { kind: 'activated', factor: { ...factor, status: 'ACTIVE' } };
    },

    /** Removes a factor; with the last active one go the recovery codes, which are no factor alone. */
    async remove(userId: string, factorId: string): Promise<boolean> {
      const removed = await factors.remove(userId, factorId);
      if (removed) {
        logger.info({ userId, factorId }, 'factor removed');
        if ((await factors.active(userId)).length === 0) await recoveryCodes.clear(userId);
      }
      return removed;
    },

    recoveryCodes: {
      /** A new set, replacing the one before; only for a user with an active factor (else undefined). */
      async generate(userId: string): Promise<string[] | undefined> {
        if ((await factors.active(userId)).length === 0) return undefined;
        const codes = await recoveryCodes.generate(userId);
        logger.info({ userId }, 'recovery codes generated');
        return codes;
      },
      remaining: (userId: string) => recoveryCodes.remaining(userId),
    },
  };
}

export type UserFactors = ReturnType<typeof userFactors>;
