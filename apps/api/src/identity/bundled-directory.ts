import { LoginAlreadyExistsError, type IdentityProvider } from '@customer-core/idp';
import { LoginTakenError, type Directory } from './directory.js';

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
    endSessions: (id) => idp.endSessions(id),
    hasSession: (sessionId, userId) => idp.hasSession(sessionId, userId),
    hasSecondFactor: (userId) => idp.hasSecondFactor(userId),
    // The provider trusts the portal in its own process: no password needed.
    sessionTokenFor: async (user) => (await idp.issueSessionToken(user.id)).sessionToken,
  };
}
