import { randomUUID } from 'node:crypto';
import type { RecoveryCodeStatus } from '@customer-core/contracts';
import { borrowerLocale, type Directory } from '../identity/directory.js';
import type { AccountChangeLimit } from './change-limit.js';
import type { MailService } from '../mail/index.js';
import type { SecondFactors } from './second-factors.js';
import type { ChangeSource, SecurityActivity } from '../activity/security-activity.js';

/**
 * What a call gives, or why it is refused: as second factors' calls are (SecondFactorProblem), or
 * `recovery_codes_not_offered`: not here (a hosted org) or not yet (no second factor).
 */
export type RecoveryCodesOutcome<T extends object> =
  | ({ ok: true } & T)
  | {
      ok: false;
      problem:
        | 'off'
        | 'no_directory_identity'
        | 'too_many_changes'
        | 'wrong_password'
        | 'recovery_codes_not_offered';
    };

/**
 * A borrower's recovery codes, kept by the bundled identity provider: offered once they have a
 * second factor; a new set takes the current password (checked with the sign-in lockout), replaces
 * the old one, and is told to the borrower by e-mail and in their activity.
 */
export function recoveryCodes(deps: {
  directory: Directory;
  secondFactors: SecondFactors;
  activity: SecurityActivity;
  mail: MailService;
  limit: AccountChangeLimit;
}) {
  const { directory, secondFactors, activity, mail } = deps;

  return {
    async status(borrowerId: string): Promise<RecoveryCodesOutcome<{ status: RecoveryCodeStatus }>> {
      const codes = directory.recoveryCodes;
      const found = await secondFactors.identityOf(borrowerId);
      if (!found.ok) return found;
      const notOffered = { ok: true, status: { offered: false, remaining: 0 } } as const;
      if (!codes || !found.identity) return notOffered;
      const factors = await secondFactors.list(borrowerId);
      if (!factors.ok) return factors;
      if (factors.factors.length === 0) return notOffered;
      return { ok: true, status: { offered: true, remaining: await codes.remaining(found.identity.userId) } };
    },

    async generate(
      borrowerId: string,
      currentPassword: string,
      from: ChangeSource,
    ): Promise<RecoveryCodesOutcome<{ codes: string[] }>> {
      const codes = directory.recoveryCodes;
      const found = await secondFactors.identityOf(borrowerId);
      if (!found.ok) return found;
      const { identity } = found;
      if (!identity) return { ok: false, problem: 'no_directory_identity' };
      const factors = codes && (await secondFactors.list(borrowerId));
      if (factors && !factors.ok) return factors;
      if (!codes || !factors || factors.factors.length === 0)
        return { ok: false, problem: 'recovery_codes_not_offered' };
      if (!(await deps.limit.wouldAllow(identity.borrower)))
        return { ok: false, problem: 'too_many_changes' };
      const verified = await directory.verifyPassword(identity.userId, currentPassword, from.clientAddress);
      if (!verified.ok) return verified;
      const generated = await codes.generate(identity.userId);
      if (!generated) return { ok: false, problem: 'recovery_codes_not_offered' };
      const { borrower } = identity;
      await deps.limit.count(borrower);
      await activity.record(borrower.id, {
        kind: 'recovery_codes_generated',
        userAgent: from.userAgent,
        clientAddress: from.clientAddress,
      });
      await mail.enqueue({
        ...mail.templates.factorNoticeEmail({
          firstName: borrower.firstName,
          locale: await borrowerLocale(directory, borrower),
          change: 'recovery-codes-generated',
        }),
        to: borrower.email,
        idempotencyKey: `recovery-codes-generated:${randomUUID()}`,
      });
      mail.nudge();
      return { ok: true, codes: generated };
    },
  };
}

export type RecoveryCodesService = ReturnType<typeof recoveryCodes>;
