import { embeddedUser } from '../authn-route.js';
import type { IdpUser } from '../users.js';
import type { AuthnTransaction } from './authn-transactions.js';
import { TOTP_FACTOR, type Factor } from './factor-store.js';
import { totpActivation } from './totp.js';

/**
 * Okta's Classic Authentication API answers for the factor states, in the shapes okta-auth-js'
 * AuthnTransaction reads: it turns each `_links` entry with one allowed method into a function
 * (`verify`, `enroll`, `activate`, `cancel`), so every link is absolute and names POST.
 */

export const AUTHN_FACTORS_PATH = '/api/v1/authn/factors';
export const AUTHN_CANCEL_PATH = '/api/v1/authn/cancel';
export const factorVerifyPath = (factorId: string) => `${AUTHN_FACTORS_PATH}/${factorId}/verify`;
export const factorActivatePath = (factorId: string) =>
  `${AUTHN_FACTORS_PATH}/${factorId}/lifecycle/activate`;

export const post = (href: string) => ({ href, hints: { allow: ['POST'] } });

export function transactionHead(stateToken: string, transaction: AuthnTransaction) {
  return { stateToken, expiresAt: transaction.expiresAt.toISOString(), status: transaction.status };
}

export function transactionBodies(orgUrl: string) {
  const cancel = post(`${orgUrl}${AUTHN_CANCEL_PATH}`);

  return {
    /** MFA_REQUIRED: the user's factors, each with its `verify` link (and its own profile, where given). */
    mfaRequired(
      stateToken: string,
      transaction: AuthnTransaction,
      user: IdpUser,
      factors: Factor[],
      profiles?: ReadonlyMap<string, object>,
    ) {
      return {
        ...transactionHead(stateToken, transaction),
        _embedded: {
          user: embeddedUser(user),
          factors: factors.map((factor) => ({
            id: factor.id,
            factorType: factor.factorType,
            provider: factor.provider,
            vendorName: factor.provider,
            profile: profiles?.get(factor.id) ?? { credentialId: user.login },
            _links: { verify: post(`${orgUrl}${factorVerifyPath(factor.id)}`) },
          })),
          policy: {
            allowRememberDevice: false,
            rememberDeviceLifetimeInMinutes: 0,
            rememberDeviceByDefault: false,
            factorsPolicyInfo: {},
          },
        },
        _links: { cancel },
      };
    },

    /** MFA_ENROLL: the factors the user may enrol, each with its `enroll` link; no `skip` (required). */
    mfaEnroll(stateToken: string, transaction: AuthnTransaction, user: IdpUser) {
      return {
        ...transactionHead(stateToken, transaction),
        _embedded: {
          user: embeddedUser(user),
          factors: [
            {
              factorType: TOTP_FACTOR.factorType,
              provider: TOTP_FACTOR.provider,
              vendorName: TOTP_FACTOR.provider,
              status: 'NOT_SETUP',
              enrollment: 'REQUIRED',
              _links: { enroll: post(`${orgUrl}${AUTHN_FACTORS_PATH}`) },
            },
          ],
        },
        _links: { cancel },
      };
    },

    /** MFA_ENROLL_ACTIVATE for TOTP: the shared secret, and `next` (activate) with the first code. */
    totpEnrollActivate(stateToken: string, transaction: AuthnTransaction, user: IdpUser, factor: Factor) {
      return {
        ...transactionHead(stateToken, transaction),
        _embedded: {
          user: embeddedUser(user),
          factor: {
            id: factor.id,
            factorType: factor.factorType,
            provider: factor.provider,
            vendorName: factor.provider,
            profile: { credentialId: user.login },
            _embedded: {
              activation: { ...totpActivation(factor.secret), factorResult: 'WAITING' },
            },
          },
        },
        _links: {
          next: { name: 'activate', ...post(`${orgUrl}${factorActivatePath(factor.id)}`) },
          cancel,
        },
      };
    },
  };
}

export type TransactionBodies = ReturnType<typeof transactionBodies>;
