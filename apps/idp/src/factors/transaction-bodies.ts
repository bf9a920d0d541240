import type { z } from 'zod';
import { EMAIL_FACTOR, TOTP_FACTOR, type AuthnAnswer } from '@customer-core/contracts/server';
import { embeddedUser } from '../authn-route.js';
import type { IdpUser } from '../user-repository.js';
import type { AuthnTransaction } from './authn-transaction-repository.js';
import { maskedEmail } from './email-factor.js';
import type { Factor } from './factor-repository.js';
import { totpActivation } from './totp.js';

/**
 * Okta's Classic Authentication API answers for the factor states, in the shapes okta-auth-js'
 * AuthnTransaction reads: it turns each `_links` entry with one allowed method into a function
 * (`verify`, `enroll`, `activate`, `cancel`), so every link is absolute and names POST.
 */

export const AUTHN_FACTORS_PATH = '/api/v1/authn/factors';
export const AUTHN_CANCEL_PATH = '/api/v1/authn/cancel';
/** Okta's "get transaction state": where a transaction begun elsewhere (an e-mailed link) is picked up. */
export const AUTHN_INTROSPECT_PATH = '/api/v1/authn/introspect';
/** Back from a factor's challenge to the choice of factors (Okta's `prev`). */
export const AUTHN_PREVIOUS_PATH = '/api/v1/authn/previous';
export const factorVerifyPath = (factorId: string) => `${AUTHN_FACTORS_PATH}/${factorId}/verify`;
export const factorActivatePath = (factorId: string) =>
  `${AUTHN_FACTORS_PATH}/${factorId}/lifecycle/activate`;

export const post = (href: string) => ({ href, hints: { allow: ['POST'] } });

/** A factor's profile as the authn answers show it: an e-mail factor's address masked, as Okta does. */
export function factorProfile(factor: Factor, user: IdpUser) {
  if (factor.factorType === EMAIL_FACTOR.factorType) return { email: maskedEmail(user.login) };
  if (factor.factorType === TOTP_FACTOR.factorType) return { credentialId: user.login };
  return {};
}

/** The head of every answer of a factor state: every field the API reads of an authn answer is in it. */
export function transactionHead(stateToken: string, transaction: AuthnTransaction) {
  const head = { stateToken, expiresAt: transaction.expiresAt.toISOString(), status: transaction.status };
  return head satisfies z.input<typeof AuthnAnswer>;
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
            profile: profiles?.get(factor.id) ?? factorProfile(factor, user),
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
    mfaEnroll(stateToken: string, transaction: AuthnTransaction, user: IdpUser, offerEmail: boolean) {
      const enrol = (kind: { factorType: string; provider: string }) => ({
        factorType: kind.factorType,
        provider: kind.provider,
        vendorName: kind.provider,
        status: 'NOT_SETUP',
        enrollment: 'REQUIRED',
        _links: { enroll: post(`${orgUrl}${AUTHN_FACTORS_PATH}`) },
      });
      return {
        ...transactionHead(stateToken, transaction),
        _embedded: {
          user: embeddedUser(user),
          factors: [enrol(TOTP_FACTOR), ...(offerEmail ? [enrol(EMAIL_FACTOR)] : [])],
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
