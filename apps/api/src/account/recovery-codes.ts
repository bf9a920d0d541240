import { randomUUID } from 'node:crypto';
import type { RecoveryCodeStatus } from '@customer-core/contracts';
import type { Directory } from '../identity/directory.js';
import type { AccountChangeLimit } from './change-limit.js';
import type { MailExecutor, MailService } from '../mail/index.js';
import { NoDirectoryIdentityError, type SecondFactors } from './second-factors.js';
import type { ChangeSource, SecurityActivity } from '../activity/security-activity.js';

/** Recovery codes are not offered here (a hosted org) or not yet (no second factor). */
export class RecoveryCodesNotOfferedError extends Error {
  constructor() {
    super('Recovery codes are not offered to this borrower');
    this.name = 'RecoveryCodesNotOfferedError';
  }
}

/**
 * A borrower's recovery codes, kept by the bundled identity provider: offered once they have a
 * second factor; a new set takes the current password (checked with the sign-in lockout), replaces
 * the old one, and is told to the borrower by e-mail and in their activity.
 */
export function recoveryCodes(deps: {
  db: MailExecutor;
  directory: Directory;
  secondFactors: SecondFactors;
  activity: SecurityActivity;
  mail: MailService;
  limit: AccountChangeLimit;
}) {
  const { directory, secondFactors, activity, mail } = deps;

  return {
    async status(borrowerId: string): Promise<RecoveryCodeStatus> {
      const codes = directory.recoveryCodes;
      const identity = await secondFactors.identityOf(borrowerId);
      if (!codes || !identity || (await secondFactors.list(borrowerId)).length === 0)
        return { offered: false, remaining: 0 };
      return { offered: true, remaining: await codes.remaining(identity.userId) };
    },

    async generate(borrowerId: string, currentPassword: string, from: ChangeSource): Promise<string[]> {
      const codes = directory.recoveryCodes;
      const identity = await secondFactors.identityOf(borrowerId);
      if (!identity) throw new NoDirectoryIdentityError();
      if (!codes || (await secondFactors.list(borrowerId)).length === 0)
        throw new RecoveryCodesNotOfferedError();
      await deps.limit.check(identity.borrower);
      await directory.verifyPassword(identity.userId, currentPassword, from.clientAddress);
      const generated = await codes.generate(identity.userId);
      if (!generated) throw new RecoveryCodesNotOfferedError();
      const { borrower } = identity;
      await deps.limit.count(borrower);
      await activity.record(borrower.id, {
        kind: 'recovery_codes_generated',
        userAgent: from.userAgent,
        clientAddress: from.clientAddress,
      });
      await mail.enqueue(deps.db, {
        ...mail.templates.factorNoticeEmail({
          firstName: borrower.firstName,
          change: 'recovery-codes-generated',
        }),
        to: borrower.email,
        idempotencyKey: `recovery-codes-generated:${randomUUID()}`,
      });
      mail.nudge();
      return generated;
    },
  };
}

export type RecoveryCodesService = ReturnType<typeof recoveryCodes>;
