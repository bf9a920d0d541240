import { randomUUID } from 'node:crypto';
import type { BorrowerRepository } from '../borrowers/borrower-repository.js';
import { borrowerLocale, type Directory } from '../identity/directory.js';
import type { MailService } from '../mail/index.js';
import type { Sessions } from '../session/sessions.js';
import type { AccountChangeLimit } from './change-limit.js';
import type { SecurityActivity } from '../activity/security-activity.js';

export interface PasswordChangeRequest {
  borrowerId: string;
  /** The caller's session: kept when the others are signed out. */
  sid: string;
  currentPassword: string;
  newPassword: string;
  signOutOtherSessions: boolean;
  clientAddress: string;
  userAgent: string | undefined;
}

export type PasswordChangeOutcome =
  | { kind: 'changed'; endedSessions: number }
  /** Signed in from the lender's systems only, or through another issuer: no password of ours to change. */
  | { kind: 'no_password' }
  /** Past the ceiling on credential changes (AccountChangeLimit). */
  | { kind: 'too_many_changes' }
  | { kind: 'wrong_password' }
  | { kind: 'password_refused'; requirements: string };

/**
 * A signed-in borrower changes their password. The directory checks the current one as a sign-in
 * does (lockout included: 'wrong_password') and applies its policy ('password_refused'); then the
 * other sessions end when asked, and the borrower is told by e-mail.
 */
export function passwordChange(deps: {
  directory: Directory;
  borrowers: BorrowerRepository;
  sessions: Sessions;
  activity: SecurityActivity;
  mail: MailService;
  limit: AccountChangeLimit;
}) {
  const { directory, borrowers, sessions, activity, mail, limit } = deps;

  return async function changePassword(request: PasswordChangeRequest): Promise<PasswordChangeOutcome> {
    const borrower = await borrowers.findById(request.borrowerId);
    if (!borrower?.idpSubject || borrower.idpIssuer !== directory.issuer) return { kind: 'no_password' };
    if (!(await limit.wouldAllow(borrower))) return { kind: 'too_many_changes' };
    const changed = await directory.changePassword(
      borrower.idpSubject,
      request.currentPassword,
      request.newPassword,
      request.clientAddress,
    );
    if (!changed.ok)
      return changed.problem === 'wrong_password'
        ? { kind: 'wrong_password' }
        : { kind: 'password_refused', requirements: changed.requirements };
    await limit.count(borrower);
    await activity.record(borrower.id, {
      kind: 'password_changed',
      sessionId: request.sid,
      userAgent: request.userAgent,
      clientAddress: request.clientAddress,
    });
    const endedSessions = request.signOutOtherSessions
      ? await sessions.endOtherSessions(borrower.id, request.sid, 'password_change')
      : 0;
    // The password lives in the directory (another database, or a hosted org): no transaction spans
    // both, so the message is written once the change has happened, never for one that did not.
    await mail.enqueue({
      ...mail.templates.passwordChangedEmail({
        firstName: borrower.firstName,
        locale: await borrowerLocale(directory, borrower),
        otherSessionsEnded: request.signOutOtherSessions,
      }),
      to: borrower.email,
      idempotencyKey: `password-changed:${randomUUID()}`,
    });
    mail.nudge();
    return { kind: 'changed', endedSessions };
  };
}

export type PasswordChange = ReturnType<typeof passwordChange>;
