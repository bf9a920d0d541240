import {
  LoginAlreadyExistsError,
  networkOf,
  PasswordCheckBusyError,
  type IdentityProvider,
} from '@customer-core/idp';
import { LoginTakenError, WrongPasswordError, type Directory } from './directory.js';
import { DirectoryUnavailableError } from './okta-directory.js';

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
    endSessions: (id) => idp.endSessions(id),
    endSession: async (sessionId, userId) => void (await idp.endSession(sessionId, userId)),
    hasSession: (sessionId, userId) => idp.hasSession(sessionId, userId),
    hasSecondFactor: (userId) => idp.hasSecondFactor(userId),
    // The provider trusts the portal in its own process: no password needed.
    sessionTokenFor: async (user) => (await idp.issueSessionToken(user.id)).sessionToken,
  };
}
