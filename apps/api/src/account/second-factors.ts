import { randomUUID } from 'node:crypto';
import { WEBAUTHN_FACTOR_TYPE, type SecondFactor, type SecondFactorType } from '@customer-core/contracts';
import { EMAIL_FACTOR, TOTP_FACTOR, type MfaPolicy } from '@customer-core/contracts/server';
import type { BorrowerRepository } from '../borrowers/borrower-repository.js';
import {
  FactorAlreadyEnrolledError,
  FactorNotFoundError,
  WrongCodeError,
  type Directory,
  type DirectoryFactor,
  type WebauthnAttestation,
} from '../identity/directory.js';
import type { MailExecutor, MailService } from '../mail/index.js';
import type { AccountChangeLimit } from './change-limit.js';
import type { ChangeSource, SecurityActivity } from '../activity/security-activity.js';

/** MFA_POLICY=off: sign-in never asks for a factor, so none is offered. */
export class SecondFactorsOffError extends Error {
  constructor() {
    super('Second factors are off');
    this.name = 'SecondFactorsOffError';
  }
}

/** The borrower signs in without an identity of the portal's directory: no factors of ours to manage. */
export class NoDirectoryIdentityError extends Error {
  constructor() {
    super('The borrower has no identity in the directory');
    this.name = 'NoDirectoryIdentityError';
  }
}

/** An e-mailed code that is wrong, used, replaced or expired (the page words it for email). */
export class WrongEmailCodeError extends WrongCodeError {
  constructor() {
    super();
    this.name = 'WrongEmailCodeError';
  }
}

/** MFA_POLICY=required: the borrower's last factor stays. */
export class LastFactorError extends Error {
  constructor() {
    super('The last factor cannot be removed while the policy requires one');
    this.name = 'LastFactorError';
  }
}

/** A hosted org: its passkeys belong to the org's domain, so the lender adds them. */
export class PasskeysWithLenderError extends Error {
  constructor() {
    super('Passkeys are added with the lender');
    this.name = 'PasskeysWithLenderError';
  }
}

/**
 * Throws (the route's step-up refusal) unless the borrower's sign-in is recent and strong enough to
 * add a way to sign in: a stolen access token must not add the thief's authenticator or passkey.
 */
export type RecentSignIn = () => Promise<void>;

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
  db: MailExecutor;
  directory: Directory;
  borrowers: BorrowerRepository;
  activity: SecurityActivity;
  mail: MailService;
  policy: MfaPolicy;
  /** Adding and removing factors count toward the ceiling on credential changes (each one is mailed). */
  limit: AccountChangeLimit;
}) {
  const { directory, borrowers, activity, mail, policy, limit } = deps;

  async function identityOf(borrowerId: string) {
    if (policy === 'off') throw new SecondFactorsOffError();
    const borrower = await borrowers.findById(borrowerId);
    if (!borrower?.idpSubject || borrower.idpIssuer !== directory.issuer) return undefined;
    return { borrower, userId: borrower.idpSubject };
  }

  /** Recorded in the borrower's security activity and told to them by e-mail. */
  async function tell(
    borrower: { id: string; firstName: string | null; email: string },
    change: 'added' | 'removed',
    type: SecondFactorType,
    from: ChangeSource,
  ) {
    await limit.count(borrower);
    await activity.record(borrower.id, {
      kind: type === 'email_code' ? `email_codes_${change}` : `second_factor_${change}`,
      ...(type === 'email_code' ? {} : { factor: type }),
      userAgent: from.userAgent,
      clientAddress: from.clientAddress,
    });
    const { firstName } = borrower;
    await mail.enqueue(deps.db, {
      ...(type === 'email_code'
        ? mail.templates.factorNoticeEmail({ firstName, change: `email-codes-${change}` })
        : mail.templates.secondFactorChangedEmail({ firstName, change, factor: type })),
      to: borrower.email,
      idempotencyKey: `second-factor-${change}:${randomUUID()}`,
    });
    mail.nudge();
  }

  /** Refuses before the step-up what would be refused after it: one factor of each kind is enough. */
  async function notYetAdded(userId: string, factorType: string): Promise<void> {
    const factors = await directory.listFactors(userId);
    if (factors.some((factor) => factor.factorType === factorType && factor.status === 'ACTIVE'))
      throw new FactorAlreadyEnrolledError();
  }

  /** The user's factor waiting for its first code or credential; an active one has none to take. */
  async function pendingFactor(userId: string, factorId: string): Promise<DirectoryFactor> {
    const factor = (await directory.listFactors(userId)).find((f) => f.id === factorId);
    if (!factor || factor.status === 'ACTIVE') throw new FactorNotFoundError();
    return factor;
  }

  return {
    policy: policy === 'required' ? ('required' as const) : ('optional' as const),
    passkeysAddedHere: directory.enrolWebauthn !== undefined,

    /** The borrower's identity in the directory, for the recovery codes beside their factors. */
    identityOf,

    async list(borrowerId: string): Promise<SecondFactor[]> {
      const identity = await identityOf(borrowerId);
      if (!identity) return [];
      return (await directory.listFactors(identity.userId)).filter(isActiveFactor).map(toSecondFactor);
    },

    async enrolAuthenticatorApp(borrowerId: string, recent: RecentSignIn) {
      const identity = await identityOf(borrowerId);
      if (!identity) throw new NoDirectoryIdentityError();
      await notYetAdded(identity.userId, TOTP_FACTOR.factorType);
      await recent();
      const enrolment = await directory.enrolTotp(identity.userId);
      return { ...enrolment, accountName: identity.borrower.email };
    },

    /** Starts email codes: the directory mails a code to the sign-in address. */
    async enrolEmail(borrowerId: string, recent: RecentSignIn) {
      const identity = await identityOf(borrowerId);
      if (!identity) throw new NoDirectoryIdentityError();
      await notYetAdded(identity.userId, EMAIL_FACTOR.factorType);
      await recent();
      const { factorId } = await directory.enrolEmail(identity.userId, identity.borrower.email);
      return { factorId, sentTo: identity.borrower.email };
    },

    /** Another code for email codes being added. */
    async resendCode(borrowerId: string, factorId: string): Promise<void> {
      const identity = await identityOf(borrowerId);
      if (!identity) throw new FactorNotFoundError();
      const pending = (await directory.listFactors(identity.userId)).find(
        (factor) =>
          factor.id === factorId &&
          factor.status !== 'ACTIVE' &&
          factor.factorType === EMAIL_FACTOR.factorType,
      );
      if (!pending) throw new FactorNotFoundError();
      await directory.resendFactorCode(identity.userId, factorId);
    },

    async activate(
      borrowerId: string,
      factorId: string,
      code: string,
      from: ChangeSource,
      recent: RecentSignIn,
    ): Promise<void> {
      const identity = await identityOf(borrowerId);
      if (!identity) throw new FactorNotFoundError();
      const factor = await pendingFactor(identity.userId, factorId);
      await recent();
      await limit.check(identity.borrower);
      try {
        await directory.activateFactor(identity.userId, factorId, code);
      } catch (error) {
        const emailed = factor.factorType === EMAIL_FACTOR.factorType && error instanceof WrongCodeError;
        throw emailed ? new WrongEmailCodeError() : error;
      }
      await tell(identity.borrower, 'added', toSecondFactor(factor).type, from);
    },

    async remove(
      borrowerId: string,
      factorId: string,
      currentPassword: string,
      from: ChangeSource,
    ): Promise<void> {
      const identity = await identityOf(borrowerId);
      if (!identity) throw new FactorNotFoundError();
      const active = (await directory.listFactors(identity.userId)).filter(isActiveFactor);
      const factor = active.find((f) => f.id === factorId);
      if (!factor) throw new FactorNotFoundError();
      if (policy === 'required' && active.length === 1) throw new LastFactorError();
      await limit.check(identity.borrower);
      await directory.verifyPassword(identity.userId, currentPassword, from.clientAddress);
      await directory.removeFactor(identity.userId, factorId);
      await tell(identity.borrower, 'removed', toSecondFactor(factor).type, from);
    },

    /** Starts adding a passkey: the options for the browser, pending its new credential. */
    async enrolPasskey(borrowerId: string, recent: RecentSignIn) {
      const identity = await identityOf(borrowerId);
      if (!identity) throw new NoDirectoryIdentityError();
      if (!directory.enrolWebauthn) throw new PasskeysWithLenderError();
      await recent();
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
    ): Promise<void> {
      const identity = await identityOf(borrowerId);
      if (!identity) throw new FactorNotFoundError();
      if (!directory.activateWebauthn) throw new PasskeysWithLenderError();
      await pendingFactor(identity.userId, factorId);
      await recent();
      await limit.check(identity.borrower);
      await directory.activateWebauthn(identity.userId, factorId, name, credential);
      await tell(identity.borrower, 'added', 'passkey', from);
    },
  };
}

export type SecondFactors = ReturnType<typeof secondFactors>;
