import { randomUUID } from 'node:crypto';
import {
  WEBAUTHN_FACTOR_TYPE,
  type PasskeyEnrolment,
  type SecondFactor,
  type SecondFactorType,
} from '@customer-core/contracts';
import { EMAIL_FACTOR, TOTP_FACTOR, type MfaPolicy } from '@customer-core/contracts/server';
import type { Borrower, BorrowerRepository } from '../borrowers/borrower-repository.js';
import {
  borrowerLocale,
  type Directory,
  type DirectoryFactor,
  type DirectoryProblem,
  type WebauthnAttestation,
} from '../identity/directory.js';
import type { MailService } from '../mail/index.js';
import type { AccountChangeLimit } from './change-limit.js';
import type { ChangeSource, SecurityActivity } from '../activity/security-activity.js';

/**
 * Why a change to the borrower's factors is refused: the directory's refusals, and the portal's own:
 * - `off`: MFA_POLICY=off, sign-in never asks for a factor, so none is offered;
 * - `no_directory_identity`: the borrower signs in without an identity of the portal's directory;
 * - `wrong_email_code`: an e-mailed code that is wrong, used, replaced or expired (the page words it for email);
 * - `last_factor`: MFA_POLICY=required, the borrower's last factor stays;
 * - `passkeys_with_lender`: a hosted org, whose passkeys belong to the org's domain: the lender adds them;
 * - `too_many_changes`: past the ceiling on credential changes (AccountChangeLimit);
 * - `step_up_required`: the borrower's sign-in is not recent or strong enough (RecentSignIn).
 */
export type SecondFactorProblem =
  | 'off'
  | 'no_directory_identity'
  | 'wrong_email_code'
  | 'last_factor'
  | 'passkeys_with_lender'
  | 'too_many_changes'
  | 'step_up_required'
  | Exclude<DirectoryProblem, 'login_taken' | 'password_refused'>;

export type SecondFactorRefusal = { ok: false; problem: SecondFactorProblem };

/** What a call gives when it goes through (`T`), or why it was refused. */
export type SecondFactorOutcome<T extends object = object> = ({ ok: true } & T) | SecondFactorRefusal;

const refusal = (problem: SecondFactorProblem): SecondFactorRefusal => ({ ok: false, problem });

/**
 * Whether the borrower's sign-in is recent and strong enough to add a way to sign in (the route's
 * step-up check): a stolen access token must not add the thief's authenticator or passkey.
 */
export type RecentSignIn = () => Promise<boolean>;

/** The directory's factor types the portal manages, by the portal's name for them. */
const TYPES: Record<string, SecondFactorType> = {
  [TOTP_FACTOR.factorType]: 'authenticator_app',
  [EMAIL_FACTOR.factorType]: 'email_code',
  [WEBAUTHN_FACTOR_TYPE]: 'passkey',
};

const toSecondFactor = (factor: DirectoryFactor): SecondFactor => ({
  id: factor.id,
  type: TYPES[factor.factorType] ?? 'authenticator_app',
  addedAt: factor.createdAt.toISOString(),
  lastUsedAt: factor.lastVerifiedAt?.toISOString() ?? null,
  ...(factor.name ? { name: factor.name } : {}),
});
const isActiveFactor = (factor: DirectoryFactor) => factor.status === 'ACTIVE' && factor.factorType in TYPES;

/**
 * A signed-in borrower's second factors (an authenticator app, email codes), kept by the directory. Adding one
 * takes a recent sign-in (`RecentSignIn`, asked when it starts and when it is confirmed) and its first
 * code; removing one takes the current password, checked with the sign-in lockout. Either change is
 * told to the borrower by e-mail, once it has happened.
 */
export function secondFactors(deps: {
  directory: Directory;
  borrowers: BorrowerRepository;
  activity: SecurityActivity;
  mail: MailService;
  policy: MfaPolicy;
  /** Adding and removing factors count toward the ceiling on credential changes (each one is mailed). */
  limit: AccountChangeLimit;
}) {
  const { directory, borrowers, activity, mail, policy, limit } = deps;

  /**
   * The borrower's identity in the directory; undefined for a borrower without one. 'off' when the
   * policy offers no factors.
   */
  async function identityOf(borrowerId: string) {
    if (policy === 'off') return { ok: false, problem: 'off' } as const;
    const borrower = await borrowers.findById(borrowerId);
    if (!borrower?.idpSubject || borrower.idpIssuer !== directory.issuer)
      return { ok: true as const, identity: undefined };
    return { ok: true as const, identity: { borrower, userId: borrower.idpSubject } };
  }

  /** In the borrower's security activity. */
  function recordChange(
    borrowerId: string,
    change: 'added' | 'removed',
    type: SecondFactorType,
    from: ChangeSource,
  ) {
    return activity.record(borrowerId, {
      kind: type === 'email_code' ? `email_codes_${change}` : `second_factor_${change}`,
      ...(type === 'email_code' ? {} : { factor: type }),
      userAgent: from.userAgent,
      clientAddress: from.clientAddress,
    });
  }

  /** Recorded in the borrower's security activity and told to them by e-mail. */
  async function tell(
    borrower: Borrower,
    change: 'added' | 'removed',
    type: SecondFactorType,
    from: ChangeSource,
  ) {
    await limit.count(borrower);
    await recordChange(borrower.id, change, type, from);
    const { firstName } = borrower;
    const locale = await borrowerLocale(directory, borrower);
    await mail.enqueue({
      ...(type === 'email_code'
        ? mail.templates.factorNoticeEmail({ firstName, change: `email-codes-${change}`, locale })
        : mail.templates.secondFactorChangedEmail({ firstName, change, factor: type, locale })),
      to: borrower.email,
      idempotencyKey: `second-factor-${change}:${randomUUID()}`,
    });
    mail.nudge();
  }

  /** Refused before the step-up what would be refused after it: one factor of each kind is enough. */
  async function alreadyAdded(userId: string, factorType: string): Promise<boolean> {
    const factors = await directory.listFactors(userId);
    return factors.some((factor) => factor.factorType === factorType && factor.status === 'ACTIVE');
  }

  /** The user's factor waiting for its first code or credential; an active one has none to take. */
  async function pendingFactor(userId: string, factorId: string): Promise<DirectoryFactor | undefined> {
    const factor = (await directory.listFactors(userId)).find((f) => f.id === factorId);
    return factor && factor.status !== 'ACTIVE' ? factor : undefined;
  }

  return {
    policy: policy === 'required' ? ('required' as const) : ('optional' as const),
    passkeysAddedHere: directory.enrolWebauthn !== undefined,

    /** The borrower's identity in the directory, for the recovery codes beside their factors. */
    identityOf,

    async list(
      borrowerId: string,
    ): Promise<{ ok: true; factors: SecondFactor[] } | { ok: false; problem: 'off' }> {
      const found = await identityOf(borrowerId);
      if (!found.ok) return found;
      if (!found.identity) return { ok: true, factors: [] };
      const factors = await directory.listFactors(found.identity.userId);
      return { ok: true, factors: factors.filter(isActiveFactor).map(toSecondFactor) };
    },

    async enrolAuthenticatorApp(
      borrowerId: string,
      recent: RecentSignIn,
    ): Promise<SecondFactorOutcome<{ factorId: string; sharedSecret: string; accountName: string }>> {
      const found = await identityOf(borrowerId);
      if (!found.ok) return found;
      const { identity } = found;
      if (!identity) return refusal('no_directory_identity');
      if (await alreadyAdded(identity.userId, TOTP_FACTOR.factorType))
        return refusal('factor_already_enrolled');
      if (!(await recent())) return refusal('step_up_required');
      const enrolment = await directory.enrolTotp(identity.userId);
      if (!enrolment.ok) return enrolment;
      return {
        ok: true,
        factorId: enrolment.factorId,
        sharedSecret: enrolment.sharedSecret,
        accountName: identity.borrower.email,
      };
    },

    /** Starts email codes: the directory mails a code to the sign-in address. */
    async enrolEmail(
      borrowerId: string,
      recent: RecentSignIn,
    ): Promise<SecondFactorOutcome<{ factorId: string; sentTo: string }>> {
      const found = await identityOf(borrowerId);
      if (!found.ok) return found;
      const { identity } = found;
      if (!identity) return refusal('no_directory_identity');
      if (await alreadyAdded(identity.userId, EMAIL_FACTOR.factorType))
        return refusal('factor_already_enrolled');
      if (!(await recent())) return refusal('step_up_required');
      const enrolment = await directory.enrolEmail(identity.userId, identity.borrower.email);
      if (!enrolment.ok) return enrolment;
      return { ok: true, factorId: enrolment.factorId, sentTo: identity.borrower.email };
    },

    /** Another code for email codes being added. */
    async resendCode(borrowerId: string, factorId: string): Promise<SecondFactorOutcome> {
      const found = await identityOf(borrowerId);
      if (!found.ok) return found;
      const { identity } = found;
      if (!identity) return refusal('factor_not_found');
      const pending = (await directory.listFactors(identity.userId)).find(
        (factor) =>
          factor.id === factorId &&
          factor.status !== 'ACTIVE' &&
          factor.factorType === EMAIL_FACTOR.factorType,
      );
      if (!pending) return refusal('factor_not_found');
      return directory.resendFactorCode(identity.userId, factorId);
    },

    async activate(
      borrowerId: string,
      factorId: string,
      code: string,
      from: ChangeSource,
      recent: RecentSignIn,
    ): Promise<SecondFactorOutcome> {
      const found = await identityOf(borrowerId);
      if (!found.ok) return found;
      const { identity } = found;
      if (!identity) return refusal('factor_not_found');
      const factor = await pendingFactor(identity.userId, factorId);
      if (!factor) return refusal('factor_not_found');
      if (!(await recent())) return refusal('step_up_required');
      if (!(await limit.wouldAllow(identity.borrower))) return refusal('too_many_changes');
      const activated = await directory.activateFactor(identity.userId, factorId, code);
      if (!activated.ok) {
        const emailed = factor.factorType === EMAIL_FACTOR.factorType && activated.problem === 'wrong_code';
        return emailed ? refusal('wrong_email_code') : activated;
      }
      await tell(identity.borrower, 'added', toSecondFactor(factor).type, from);
      return { ok: true };
    },

    async remove(
      borrowerId: string,
      factorId: string,
      currentPassword: string,
      from: ChangeSource,
    ): Promise<SecondFactorOutcome> {
      const found = await identityOf(borrowerId);
      if (!found.ok) return found;
      const { identity } = found;
      if (!identity) return refusal('factor_not_found');
      const active = (await directory.listFactors(identity.userId)).filter(isActiveFactor);
      const factor = active.find((f) => f.id === factorId);
      if (!factor) return refusal('factor_not_found');
      if (policy === 'required' && active.length === 1) return refusal('last_factor');
      if (!(await limit.wouldAllow(identity.borrower))) return refusal('too_many_changes');
      const verified = await directory.verifyPassword(identity.userId, currentPassword, from.clientAddress);
      if (!verified.ok) return verified;
      const removed = await directory.removeFactor(identity.userId, factorId);
      if (!removed.ok) return removed;
      await tell(identity.borrower, 'removed', toSecondFactor(factor).type, from);
      return { ok: true };
    },

    /**
     * Support's reset, once it knows the caller is the borrower (a lost phone): every second factor
     * removed (recovery codes go with the last), each in their security activity, and one e-mail saying
     * so. The caller ends their sessions. How many active factors were removed.
     */
    async resetByStaff(
      borrowerId: string,
      from: ChangeSource,
    ): Promise<SecondFactorOutcome<{ removed: number }>> {
      const found = await identityOf(borrowerId);
      if (!found.ok) return found;
      const { identity } = found;
      if (!identity) return refusal('no_directory_identity');
      let removed = 0;
      for (const factor of await directory.listFactors(identity.userId)) {
        const done = await directory.removeFactor(identity.userId, factor.id);
        if (!done.ok || !isActiveFactor(factor)) continue;
        removed += 1;
        await recordChange(borrowerId, 'removed', toSecondFactor(factor).type, from);
      }
      const { borrower } = identity;
      const locale = await borrowerLocale(directory, borrower);
      await mail.enqueue({
        ...mail.templates.factorsResetEmail({ firstName: borrower.firstName, locale }),
        to: borrower.email,
        idempotencyKey: `factors-reset:${randomUUID()}`,
      });
      mail.nudge();
      return { ok: true, removed };
    },

    /** Starts adding a passkey: the options for the browser, pending its new credential. */
    async enrolPasskey(
      borrowerId: string,
      recent: RecentSignIn,
    ): Promise<SecondFactorOutcome<{ enrolment: PasskeyEnrolment }>> {
      const found = await identityOf(borrowerId);
      if (!found.ok) return found;
      const { identity } = found;
      if (!identity) return refusal('no_directory_identity');
      if (!directory.enrolWebauthn) return refusal('passkeys_with_lender');
      if (!(await recent())) return refusal('step_up_required');
      return directory.enrolWebauthn(identity.userId);
    },

    /** The browser's new credential adds the passkey under the borrower's name for it. */
    async activatePasskey(
      borrowerId: string,
      factorId: string,
      name: string,
      credential: WebauthnAttestation,
      from: ChangeSource,
      recent: RecentSignIn,
    ): Promise<SecondFactorOutcome> {
      const found = await identityOf(borrowerId);
      if (!found.ok) return found;
      const { identity } = found;
      if (!identity) return refusal('factor_not_found');
      if (!directory.activateWebauthn) return refusal('passkeys_with_lender');
      if (!(await pendingFactor(identity.userId, factorId))) return refusal('factor_not_found');
      if (!(await recent())) return refusal('step_up_required');
      if (!(await limit.wouldAllow(identity.borrower))) return refusal('too_many_changes');
      const activated = await directory.activateWebauthn(identity.userId, factorId, name, credential);
      if (!activated.ok) return activated;
      await tell(identity.borrower, 'added', 'passkey', from);
      return { ok: true };
    },
  };
}

export type SecondFactors = ReturnType<typeof secondFactors>;
