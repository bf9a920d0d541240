import type { MfaPolicy } from '@customer-core/contracts/server';
import type { Authentication, SessionTokenRepository } from '../session-token-repository.js';
import type { IdpUser } from '../user-repository.js';
import { successBody } from '../authn-route.js';
import {
  PASSWORD_AMR,
  type AuthnTransaction,
  type AuthnTransactionRepository,
} from './authn-transaction-repository.js';
import type { SignInFactors } from './sign-in-factors.js';
import type { TransactionBodies } from './transaction-bodies.js';

export interface SecondFactorDependencies {
  policy: MfaPolicy;
  factors: SignInFactors;
  /** Whether MFA_ENROLL offers an e-mail factor (the provider can send mail). */
  offerEmail: boolean;
  transactions: AuthnTransactionRepository;
  sessionTokens: SessionTokenRepository;
  bodies: TransactionBodies;
  /** WebAuthn factors' profiles (credential id, name), as Okta shows them in MFA_REQUIRED. */
  factorProfiles?: (userId: string) => Promise<ReadonlyMap<string, object>>;
}

/** What a sign-in verified by a password and a one-time code says of itself (RFC 8176). */
export const PASSWORD_AND_OTP_AMR = ['pwd', 'otp', 'mfa'];

/**
 * What a transaction's sign-in says of itself once its second factor is verified: how it began (a
 * password, or an e-mailed link's mailbox) and the factor's own methods (`factorAmr` as after a
 * password, e.g. PASSWORD_AND_OTP_AMR).
 */
export const transactionAmr = (transaction: AuthnTransaction, factorAmr: string[]) => [
  ...transaction.primaryAmr,
  ...factorAmr.filter((value) => !PASSWORD_AMR.includes(value)),
];

/** The end of a transaction: a session token that remembers how the user signed in. */
export async function signedIn(
  sessionTokens: SessionTokenRepository,
  user: IdpUser,
  authentication: Authentication,
) {
  return successBody(user, await sessionTokens.issue(user.id, authentication));
}

/**
 * After a right password (or another first proof, `primaryAmr`: an e-mailed link's mailbox): SUCCESS,
 * or the factor state the policy asks for (MFA_REQUIRED when the user has a factor, MFA_ENROLL when
 * the policy requires one and they have none).
 */
export function secondFactorStep(deps: SecondFactorDependencies) {
  const { policy, factors, transactions, sessionTokens, bodies } = deps;
  return async function afterPrimary(
    user: IdpUser,
    primaryAmr: string[] = PASSWORD_AMR,
  ): Promise<{ status: string }> {
    // Staff (a user in any group) always sign in with a second factor, whatever the borrowers' policy.
    const staff = user.groups.length > 0;
    if (policy !== 'off' || staff) {
      const listed = await factors.listed(user.id);
      if (listed.length > 0) {
        const { stateToken, transaction } = await transactions.start(user.id, 'MFA_REQUIRED', primaryAmr);
        return bodies.mfaRequired(
          stateToken,
          transaction,
          user,
          listed,
          await deps.factorProfiles?.(user.id),
        );
      }
      if (policy === 'required' || staff) {
        const { stateToken, transaction } = await transactions.start(user.id, 'MFA_ENROLL', primaryAmr);
        return bodies.mfaEnroll(stateToken, transaction, user, deps.offerEmail);
      }
    }
    // A password alone: the session token carries no authentication, and the ID token says pwd.
    if (primaryAmr === PASSWORD_AMR) return successBody(user, await sessionTokens.issue(user.id));
    return signedIn(sessionTokens, user, { amr: primaryAmr, authenticatedAt: new Date() });
  };
}
