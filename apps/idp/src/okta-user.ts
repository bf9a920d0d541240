import type { z } from 'zod';
import type { OktaUserFields, SessionAnswer } from '@customer-core/contracts/server';
import type { IdpSession } from './oidc-model-repository.js';
import type { IdpUser } from './user-repository.js';

/** Every user is of the org's default user type; Okta names it by an id of this form. */
export const DEFAULT_USER_TYPE_ID = 'otyDefaultUserType00';

/**
 * A user as Okta's Users API answers it. Users here are created active and only their password
 * changes, so activation and status date from creation and the last update is the later of the two.
 * The login is the e-mail address.
 */
export function oktaUser(user: IdpUser, orgUrl: string) {
  const created = user.createdAt.toISOString();
  const lastUpdated = new Date(Math.max(user.createdAt.getTime(), user.passwordChangedAt.getTime()));
  const answer = {
    id: user.id,
    status: 'ACTIVE',
    created,
    activated: created,
    statusChanged: created,
    lastLogin: null,
    lastUpdated: lastUpdated.toISOString(),
    passwordChanged: user.passwordChangedAt.toISOString(),
    type: { id: DEFAULT_USER_TYPE_ID },
    profile: {
      firstName: user.firstName,
      lastName: user.lastName,
      mobilePhone: null,
      secondEmail: null,
      login: user.login,
      email: user.login,
      locale: user.locale,
      timeZone: user.timeZone,
    },
    credentials: {
      password: {},
      emails: [
        { value: user.login, status: user.emailVerified ? 'VERIFIED' : 'UNVERIFIED', type: 'PRIMARY' },
      ],
      provider: { type: 'OKTA', name: 'OKTA' },
    },
    _links: { self: { href: `${orgUrl}/api/v1/users/${encodeURIComponent(user.id)}` } },
  };
  // Every field the API reads of a user is in it.
  return answer satisfies OktaUserFields;
}

export type OktaUser = ReturnType<typeof oktaUser>;

/** A session as Okta's Sessions API answers it: by password, and a second factor when one was asked. */
export function oktaSession(session: IdpSession, user: IdpUser, orgUrl: string) {
  const signedIn = session.signedInAt.toISOString();
  const withFactor = session.amr.includes('mfa');
  const answer = {
    id: session.id,
    userId: user.id,
    login: user.login,
    createdAt: signedIn,
    expiresAt: session.expiresAt?.toISOString() ?? null,
    status: 'ACTIVE' as const,
    lastPasswordVerification: signedIn,
    lastFactorVerification: withFactor ? signedIn : null,
    amr: session.amr,
    idp: { id: 'OKTA', type: 'OKTA' },
    mfaActive: withFactor,
    _links: {
      self: {
        href: `${orgUrl}/api/v1/sessions/${encodeURIComponent(session.id)}`,
        hints: { allow: ['GET'] },
      },
      user: {
        name: `${user.firstName} ${user.lastName}`.trim(),
        href: `${orgUrl}/api/v1/users/${encodeURIComponent(user.id)}`,
      },
    },
  };
  // Every field the API reads of a session is in it.
  return answer satisfies z.input<typeof SessionAnswer>;
}
