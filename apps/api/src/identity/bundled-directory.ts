import { LoginAlreadyExistsError, PasswordCheckBusyError, type IdentityProvider } from '@customer-core/idp';
import { networkOf } from '@customer-core/contracts/server';
import { PasskeyEnrolmentSchema } from '@customer-core/contracts';
import {
  DirectoryUnavailableError,
  FactorAlreadyEnrolledError,
  FactorNotFoundError,
  FactorNotOfferedError,
  LoginTakenError,
  PasskeyRefusedError,
  securityEventOf,
  TooManyCodesError,
  TooManyWrongCodesError,
  WrongCodeError,
  WrongPasswordError,
  type Directory,
  type WebauthnAttestation,
} from './directory.js';

/** The bundled identity provider, in this process: its own users, sessions and session tokens. */
export function bundledDirectory(idp: IdentityProvider, issuer: string): Directory {
  return {
    issuer,
    idTokensNameSessions: true,
    findById: (id) => idp.users.findById(id),
    findByLogin: (login) => idp.users.findByLogin(login),
    async create(user) {
      try {
        return await idp.users.create(user);
      } catch (error) {
        throw error instanceof LoginAlreadyExistsError ? new LoginTakenError() : error;
      }
    },
    setPassword: (id, password) => idp.users.setPassword(id, password),
    async changeLogin(id, login) {
      try {
        await idp.users.changeLogin(id, login);
      } catch (error) {
        throw error instanceof LoginAlreadyExistsError ? new LoginTakenError() : error;
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
      if (!changed) throw new WrongPasswordError();
    },
    async verifyPassword(id, password, clientAddress) {
      let right: boolean;
      try {
        right = await idp.users.verifyPassword(id, password, networkOf(clientAddress));
      } catch (error) {
        throw error instanceof PasswordCheckBusyError ? new DirectoryUnavailableError('busy') : error;
      }
      if (!right) throw new WrongPasswordError();
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
      if (outcome.kind === 'already_enrolled') throw new FactorAlreadyEnrolledError();
      return { factorId: outcome.factor.id, sharedSecret: outcome.factor.secret ?? '' };
    },
    async enrolEmail(userId) {
      const user = await idp.users.findById(userId);
      if (!user) throw new FactorNotFoundError();
      const outcome = await idp.factors.enrolEmail(user);
      if (outcome.kind === 'already_enrolled') throw new FactorAlreadyEnrolledError();
      if (outcome.kind === 'too_many_codes') throw new TooManyCodesError();
      if (outcome.kind === 'not_offered') throw new FactorNotOfferedError();
      return { factorId: outcome.factor.id };
    },
    async resendFactorCode(userId, factorId) {
      const user = await idp.users.findById(userId);
      const outcome = user ? await idp.factors.resendEmailCode(user, factorId) : { kind: 'not_found' };
      if (outcome.kind === 'not_found') throw new FactorNotFoundError();
      if (outcome.kind === 'too_many_codes') throw new TooManyCodesError();
    },
    recoveryCodes: idp.factors.recoveryCodes,
    async activateFactor(userId, factorId, passCode) {
      const outcome = await idp.factors.activate(userId, factorId, passCode);
      // An active one is not waiting for a first code: as far as activating goes, there is none.
      if (outcome.kind === 'not_found' || outcome.kind === 'already_active') throw new FactorNotFoundError();
      if (outcome.kind === 'wrong_code') throw new WrongCodeError();
      if (outcome.kind === 'too_many_wrong_codes') throw new TooManyWrongCodesError();
    },
    async removeFactor(userId, factorId) {
      if (!(await idp.factors.remove(userId, factorId))) throw new FactorNotFoundError();
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
      if (!enrolment) throw new FactorNotFoundError();
      return PasskeyEnrolmentSchema.parse(enrolment);
    },
    async activateWebauthn(userId: string, factorId: string, name: string, credential: WebauthnAttestation) {
      const outcome = await webauthn.activate(userId, factorId, name, credential);
      if (outcome === 'not_found') throw new FactorNotFoundError();
      if (outcome === 'refused') throw new PasskeyRefusedError();
    },
  } satisfies Pick<Directory, 'enrolWebauthn' | 'activateWebauthn'>;
}
