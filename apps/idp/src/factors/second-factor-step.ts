import type { Authentication, SessionTokenStore } from '../session-tokens.js';
import type { IdpUser } from '../users.js';
import { successBody } from '../authn-route.js';
import type { AuthnTransactions } from './authn-transactions.js';
import type { FactorStore } from './factor-store.js';
import type { MfaPolicy } from './mfa-policy.js';
import type { TransactionBodies } from './transaction-bodies.js';

export interface SecondFactorDependencies {
  policy: MfaPolicy;
  factors: FactorStore;
  transactions: AuthnTransactions;
  sessionTokens: SessionTokenStore;
  bodies: TransactionBodies;
  /** WebAuthn factors' profiles (credential id, name), as Okta shows them in MFA_REQUIRED. */
  factorProfiles?: (userId: string) => Promise<ReadonlyMap<string, object>>;
}

/** What a sign-in verified by a password and a one-time code says of itself (RFC 8176). */
export const PASSWORD_AND_OTP_AMR = ['pwd', 'otp', 'mfa'];

/** The end of a transaction: a session token that remembers how the user signed in. */
export async function signedIn(
  sessionTokens: SessionTokenStore,
  user: IdpUser,
  authentication: Authentication,
) {
  return successBody(user, await sessionTokens.issue(user.id, authentication));
}

/**
 * After a right password: SUCCESS, or the factor state the policy asks for (MFA_REQUIRED when the
 * user has a factor, MFA_ENROLL when the policy requires one and they have none).
 */
export function secondFactorStep(deps: SecondFactorDependencies) {
  const { policy, factors, transactions, sessionTokens, bodies } = deps;
  return async function afterPassword(user: IdpUser): Promise<{ status: string }> {
    if (policy !== 'off') {
      const active = await factors.active(user.id);
      if (active.length > 0) {
        const { stateToken, transaction } = await transactions.start(user.id, 'MFA_REQUIRED');
        return bodies.mfaRequired(
          stateToken,
          transaction,
          user,
          active,
          await deps.factorProfiles?.(user.id),
        );
      }
      if (policy === 'required') {
        const { stateToken, transaction } = await transactions.start(user.id, 'MFA_ENROLL');
        return bodies.mfaEnroll(stateToken, transaction, user);
      }
    }
    // A password alone: the session token carries no authentication, and the ID token says pwd.
    return successBody(user, await sessionTokens.issue(user.id));
  };
}
