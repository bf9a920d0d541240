import { randomBytes } from 'node:crypto';
import {
  LoginAlreadyExistsError,
  PasswordCheckBusyError,
  type IdentityProvider,
  type IdpUser,
} from '@customer-core/idp';
import { networkOf, oktaLocaleOf } from '@customer-core/contracts/server';
import { DEFAULT_LOCALE, matchLocale, PasskeyEnrolmentSchema } from '@customer-core/contracts';
import {
  DirectoryUnavailableError,
  securityEventOf,
  type Directory,
  type DirectoryStaffUser,
  type DirectoryUser,
  type WebauthnAttestation,
} from './directory.js';

/** The provider's user as the directory's: its locale ("es_US") as one of the portal's languages. */
function directoryUserOf(user: IdpUser): DirectoryUser;
function directoryUserOf(user: IdpUser | undefined): DirectoryUser | undefined;
function directoryUserOf(user: IdpUser | undefined): DirectoryUser | undefined {
  return (
    user && {
      id: user.id,
      login: user.login,
      firstName: user.firstName,
      lastName: user.lastName,
      locale: matchLocale(user.locale) ?? DEFAULT_LOCALE,
    }
  );
}

const staffUserOf = (user: IdpUser): DirectoryStaffUser => ({
  ...directoryUserOf(user),
  groups: user.groups,
  createdAt: user.createdAt,
});

/** The bundled identity provider, in this process: its own users, sessions and session tokens. */
export function bundledDirectory(idp: IdentityProvider, issuer: string): Directory {
  return {
    issuer,
    factorAfterLink: true,
    idTokensNameSessions: true,
    findById: async (id) => directoryUserOf(await idp.users.findById(id)),
    findByLogin: async (login) => directoryUserOf(await idp.users.findByLogin(login)),
    async create(user) {
      try {
        return { ok: true, user: directoryUserOf(await idp.users.create(user)) };
      } catch (error) {
        if (error instanceof LoginAlreadyExistsError) return { ok: false, problem: 'login_taken' };
        throw error;
      }
    },
    // Passwords set in-process follow the portal's own rules: the provider's policy is for its Users API.
    setPassword: async (id, password) => (await idp.users.setPassword(id, password), { ok: true }),
    deleteUser: async (id) => void (await idp.users.delete(id)),
    unlock: (id) => idp.users.unlock(id),
    isLocked: (id) => idp.users.isLocked(id),
    staff: {
      groupsOf: async (id) => (await idp.users.findById(id))?.groups ?? [],
      inGroups: async (groups) => (await idp.users.inGroups(groups)).map(staffUserOf),
      async create({ groups, ...user }) {
        try {
          // A password nobody knows: the staff user sets theirs from the e-mailed link.
          const password = randomBytes(32).toString('base64url');
          return { ok: true, user: staffUserOf(await idp.users.create({ ...user, password, groups })) };
        } catch (error) {
          if (error instanceof LoginAlreadyExistsError) return { ok: false, problem: 'login_taken' };
          throw error;
        }
      },
      setGroups: (id, groups) => idp.users.setGroups(id, groups),
    },
    setLocale: (id, locale) => idp.users.setLocale(id, oktaLocaleOf(locale)),
    async changeLogin(id, login) {
      try {
        await idp.users.changeLogin(id, login);
        return { ok: true };
      } catch (error) {
        if (error instanceof LoginAlreadyExistsError) return { ok: false, problem: 'login_taken' };
        throw error;
      }
    },
    async changePassword(id, currentPassword, newPassword, clientAddress) {
      let changed: boolean;
      try {
        changed = await idp.users.changePassword(id, currentPassword, newPassword, networkOf(clientAddress));
      } catch (error) {
        // Every core busy checking passwords: a moment's wait, as for a hosted org that is busy.
        throw error instanceof PasswordCheckBusyError ? new DirectoryUnavailableError('busy') : error;
      }
      return changed ? { ok: true } : { ok: false, problem: 'wrong_password' };
    },
    async verifyPassword(id, password, clientAddress) {
      let right: boolean;
      try {
        right = await idp.users.verifyPassword(id, password, networkOf(clientAddress));
      } catch (error) {
        throw error instanceof PasswordCheckBusyError ? new DirectoryUnavailableError('busy') : error;
      }
      return right ? { ok: true } : { ok: false, problem: 'wrong_password' };
    },
    async listFactors(userId) {
      const names = (await idp.webauthn?.names(userId)) ?? new Map<string, string>();
      return (await idp.factors.list(userId)).map((factor) => ({
        id: factor.id,
        factorType: factor.factorType,
        status: factor.status,
        createdAt: factor.createdAt,
        lastVerifiedAt: factor.lastUsedAt,
        ...(names.has(factor.id) ? { name: names.get(factor.id) } : {}),
      }));
    },
    ...(idp.webauthn ? bundledWebauthn(idp.webauthn) : {}),
    async enrolTotp(userId) {
      const outcome = await idp.factors.enrolTotp(userId);
      switch (outcome.kind) {
        case 'already_enrolled':
          return { ok: false, problem: 'factor_already_enrolled' };
        case 'enrolled':
          return { ok: true, factorId: outcome.factor.id, sharedSecret: outcome.factor.secret ?? '' };
      }
    },
    async enrolEmail(userId) {
      const user = await idp.users.findById(userId);
      if (!user) return { ok: false, problem: 'factor_not_found' };
      const outcome = await idp.factors.enrolEmail(user);
      switch (outcome.kind) {
        case 'already_enrolled':
          return { ok: false, problem: 'factor_already_enrolled' };
        case 'too_many_codes':
          return { ok: false, problem: 'too_many_codes' };
        case 'not_offered':
          return { ok: false, problem: 'factor_not_offered' };
        case 'enrolled':
          return { ok: true, factorId: outcome.factor.id };
      }
    },
    async resendFactorCode(userId, factorId) {
      const user = await idp.users.findById(userId);
      const outcome = user
        ? await idp.factors.resendEmailCode(user, factorId)
        : ({ kind: 'not_found' } as const);
      switch (outcome.kind) {
        case 'not_found':
          return { ok: false, problem: 'factor_not_found' };
        case 'too_many_codes':
          return { ok: false, problem: 'too_many_codes' };
        case 'sent':
          return { ok: true };
      }
    },
    recoveryCodes: idp.factors.recoveryCodes,
    async activateFactor(userId, factorId, passCode) {
      const outcome = await idp.factors.activate(userId, factorId, passCode);
      switch (outcome.kind) {
        // An active one is not waiting for a first code: as far as activating goes, there is none.
        case 'not_found':
        case 'already_active':
          return { ok: false, problem: 'factor_not_found' };
        case 'wrong_code':
          return { ok: false, problem: 'wrong_code' };
        case 'too_many_wrong_codes':
          return { ok: false, problem: 'too_many_wrong_codes' };
        case 'activated':
          return { ok: true };
      }
    },
    async removeFactor(userId, factorId) {
      return (await idp.factors.remove(userId, factorId))
        ? { ok: true }
        : { ok: false, problem: 'factor_not_found' };
    },
    endSessions: (id) => idp.endSessions(id),
    endSession: async (sessionId, userId) => void (await idp.endSession(sessionId, userId)),
    hasSession: (sessionId, userId) => idp.hasSession(sessionId, userId),
    hasSecondFactor: (userId) => idp.hasSecondFactor(userId),
    // The provider trusts the portal in its own process, which has just set the password: no check.
    passwordSignIn: (user) => idp.passwordSignIn(user.id),
    // The provider asks for the user's second factor after the link as after a password.
    linkSignIn: (user) => idp.linkSignIn(user.id),
    async signInTrouble(id, since) {
      const events = await idp.securityEvents(id, since);
      return events.flatMap((event) => {
        const read = securityEventOf({
          uuid: event.id,
          published: event.published.toISOString(),
          eventType: event.eventType,
          outcome: { result: event.outcome },
          client: { userAgent: { rawUserAgent: event.userAgent }, ipAddress: event.clientNetwork },
        });
        return read ? [read] : [];
      });
    },
  };
}

/** Passkeys of the bundled provider: the portal is their relying party. */
function bundledWebauthn(webauthn: NonNullable<IdentityProvider['webauthn']>) {
  return {
    async enrolWebauthn(userId: string) {
      const enrolment = await webauthn.enrol(userId);
      if (!enrolment) return { ok: false, problem: 'factor_not_found' } as const;
      return { ok: true, enrolment: PasskeyEnrolmentSchema.parse(enrolment) } as const;
    },
    async activateWebauthn(userId: string, factorId: string, name: string, credential: WebauthnAttestation) {
      const outcome = await webauthn.activate(userId, factorId, name, credential);
      switch (outcome) {
        case 'not_found':
          return { ok: false, problem: 'factor_not_found' } as const;
        case 'refused':
          return { ok: false, problem: 'passkey_refused' } as const;
        case 'activated':
          return { ok: true } as const;
      }
    },
  } satisfies Pick<Directory, 'enrolWebauthn' | 'activateWebauthn'>;
}
