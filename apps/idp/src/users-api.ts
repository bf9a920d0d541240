import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/rate-limit'; // typings of app.createRateLimit
import { findControlCharacter } from '@customer-core/contracts';
import {
  ChangePasswordBody,
  clientAddress,
  CreateUserBody,
  networkOf,
  UpdateUserBody,
} from '@customer-core/contracts/server';
import type { ApiTokens } from './api-tokens.js';
import { registerFactorsApi } from './factors/factors-api.js';
import type { UserFactors } from './factors/user-factors.js';
import type { IdpSession } from './oidc-model-repository.js';
import { oktaErrorHandler, sendOktaError } from './okta-error-handler.js';
import {
  apiValidationFailed,
  credentialsUpdateFailed,
  invalidToken,
  malformedRequest,
  rateLimited,
  resourceNotFound,
  serviceBusy,
} from './okta-errors.js';
import { PasswordCheckBusyError, type VerifyCurrentPassword } from './password-change.js';
import { oktaSession, oktaUser } from './okta-user.js';
import type { SecurityLogRepository } from './security-log-repository.js';
import { registerSystemLogRoute } from './system-log-api.js';
import type { PasswordPolicy } from './password-policy.js';
import { LoginAlreadyExistsError, type IdpUser, type UserRepository } from './user-repository.js';
import { parseOktaBody } from './okta-bodies.js';

export const USERS_PATH = '/api/v1/users';
export const SESSIONS_PATH = '/api/v1/sessions';

export interface UsersApiRateLimit {
  max: number;
  windowSeconds: number;
}

export interface UsersApiDependencies {
  users: UserRepository;
  tokens: ApiTokens;
  policy: PasswordPolicy;
  rateLimit: UsersApiRateLimit;
  /** The org's address (the issuer's origin): users' self links point there. */
  orgUrl: string;
  /** Ends every session of the account (the identity provider's endSessions). */
  endSessions(accountId: string): Promise<void>;
  /** Ends one session of the account (the identity provider's endSession). */
  endSession(sessionId: string, accountId: string): Promise<boolean>;
  /** Ends the account's sessions and deletes it (the identity provider's users.delete). */
  deleteUser(accountId: string): Promise<boolean>;
  /** A live session by the sid of its ID tokens. */
  findSession(sessionId: string): Promise<IdpSession | undefined>;
  /** Checks a user's current password as a sign-in does, lockout included. */
  verifyCurrentPassword: VerifyCurrentPassword;
  /** Behind a load balancer: the caller's address is the last X-Forwarded-For entry. */
  trustProxy: boolean;
  /** The users' second factors (the Factors API under /api/v1/users/{id}/factors). */
  factors: UserFactors;
  /** Failed sign-ins and lockouts, read through the System Log API. */
  securityLog: SecurityLogRepository;
}

const BODY_LIMIT = 16 * 1024;

// The path may name a user by login (an e-mail address): the log shows the route, not the address.
const logSerializers = {
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: request.routeOptions.url,
    ip: request.ip,
  }),
};
const routeOptions = { bodyLimit: BODY_LIMIT, logSerializers };

const loginTaken = () =>
  apiValidationFailed('login', [
    'login: An object with this field already exists in the current organization',
  ]);

/**
 * The part of Okta's Users API that the portal's Okta adapter calls, in Okta's shapes: create a user
 * with a password, read one by id or login, set a password as an administrator, end every session,
 * unlock and delete a user, and list, enrol, activate and delete a user's factors.
 * Callers authenticate with an SSWS API token and are rate-limited per token, in the database so
 * that every instance counts the same calls.
 */
export function usersApiRoutes(deps: UsersApiDependencies) {
  const { users, policy, orgUrl } = deps;
  const findUser = async (idOrLogin: string): Promise<IdpUser | undefined> =>
    (await users.findById(idOrLogin)) ?? (await users.findByLogin(idOrLogin));
  const notFound = (reply: FastifyReply, idOrLogin: string) =>
    sendOktaError(reply, 404, resourceNotFound(idOrLogin, 'User'));
  const passwordRefused = () => apiValidationFailed('password', [`password: ${policy.refusal}`]);

  return async function registerUsersApi(app: FastifyInstance): Promise<void> {
    app.setErrorHandler(oktaErrorHandler('users api'));

    const callers = new WeakMap<FastifyRequest, string>();
    const limit = app.createRateLimit({
      max: deps.rateLimit.max,
      timeWindow: deps.rateLimit.windowSeconds * 1000,
      keyGenerator: (request) => `okta-api:${callers.get(request) ?? ''}`,
    });

    // Before the body is read: an unknown caller costs a digest, and no database work.
    app.addHook('onRequest', async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const caller = deps.tokens.callerOf(request.headers.authorization);
      if (!caller) {
        request.log.info('users api: refused, no valid API token');
        return sendOktaError(reply, 401, invalidToken());
      }
      callers.set(request, caller);
      const count = await limit(request);
      if (count.isAllowed) return;
      // Okta's headers; the reset is when the window ends, in epoch seconds.
      reply.header('X-Rate-Limit-Limit', count.max);
      reply.header('X-Rate-Limit-Remaining', count.remaining);
      reply.header('X-Rate-Limit-Reset', Math.ceil((Date.now() + count.ttl) / 1000));
      if (count.isExceeded) {
        request.log.warn('users api: rate limit reached');
        return sendOktaError(reply, 429, rateLimited());
      }
    });

    // Logins, names and passwords never hold control characters: refused before any lookup.
    app.addHook('preValidation', async (request, reply) => {
      for (const [part, value] of Object.entries({
        path: request.params,
        query: request.query,
        body: request.body,
      }))
        if (findControlCharacter(value) !== undefined)
          return sendOktaError(
            reply,
            400,
            malformedRequest([`${part}: control characters are not accepted`]),
          );
    });

    app.post(USERS_PATH, routeOptions, async (request, reply) => {
      const { activate } = request.query as { activate?: string };
      // Okta would make a STAGED user; users here are active from the start.
      if (activate !== undefined && activate !== 'true')
        return sendOktaError(
          reply,
          400,
          apiValidationFailed('activate', ['activate: only activate=true is supported: users start active']),
        );
      const parsed = parseOktaBody(CreateUserBody, request.body);
      if (!parsed.success) return sendOktaError(reply, 400, parsed.error);
      const { profile, credentials } = parsed.data;
      // Logins are e-mail addresses here, and the address is the login: there is no second one to keep.
      if (profile.email.toLowerCase() !== profile.login.toLowerCase())
        return sendOktaError(
          reply,
          400,
          apiValidationFailed('email', ['email: must be the same address as login in this organization']),
        );
      if (!policy.accepts(credentials.password.value, profile))
        return sendOktaError(reply, 400, passwordRefused());
      let user: IdpUser;
      try {
        user = await users.create({
          login: profile.login,
          password: credentials.password.value,
          firstName: profile.firstName,
          lastName: profile.lastName,
          locale: profile.locale,
          timeZone: profile.timeZone,
        });
      } catch (error) {
        if (error instanceof LoginAlreadyExistsError) return sendOktaError(reply, 400, loginTaken());
        throw error;
      }
      request.log.info({ userId: user.id }, 'users api: user created');
      return reply.send(oktaUser(user, orgUrl));
    });

    app.get(`${USERS_PATH}/:idOrLogin`, routeOptions, async (request, reply) => {
      const { idOrLogin } = request.params as { idOrLogin: string };
      const user = await findUser(idOrLogin);
      if (!user) return notFound(reply, idOrLogin);
      return reply.send(oktaUser(user, orgUrl));
    });

    // Okta's partial update: here, setting the password as an administrator does, and the profile's
    // locale (the user's language).
    app.post(`${USERS_PATH}/:idOrLogin`, routeOptions, async (request, reply) => {
      const { idOrLogin } = request.params as { idOrLogin: string };
      const parsed = parseOktaBody(UpdateUserBody, request.body);
      if (!parsed.success) return sendOktaError(reply, 400, parsed.error);
      const user = await findUser(idOrLogin);
      if (!user) return notFound(reply, idOrLogin);
      const { credentials, profile } = parsed.data;
      if (credentials) {
        const password = credentials.password.value;
        if (!policy.accepts(password, user)) return sendOktaError(reply, 400, passwordRefused());
        await users.setPassword(user.id, password); // also lifts lockouts
        request.log.info({ userId: user.id }, 'users api: password set');
      }
      if (profile?.locale !== undefined) {
        if (!(await users.setLocale(user.id, profile.locale))) return notFound(reply, idOrLogin);
        request.log.info({ userId: user.id }, 'users api: locale set');
      }
      const updated = await users.findById(user.id);
      if (!updated) return notFound(reply, idOrLogin); // deleted meanwhile
      return reply.send(oktaUser(updated, orgUrl));
    });

    // Okta's "Change password": the old password must be the user's (a wrong one counts against the
    // lockout as a wrong sign-in does, from the caller's network), the new one meet the policy.
    app.post(`${USERS_PATH}/:idOrLogin/credentials/change_password`, routeOptions, async (request, reply) => {
      const { idOrLogin } = request.params as { idOrLogin: string };
      const parsed = parseOktaBody(ChangePasswordBody, request.body);
      if (!parsed.success) return sendOktaError(reply, 400, parsed.error);
      const user = await findUser(idOrLogin);
      if (!user) return notFound(reply, idOrLogin);
      const network = networkOf(clientAddress(request, deps.trustProxy));
      let verified: IdpUser | undefined;
      try {
        verified = await deps.verifyCurrentPassword(user.id, parsed.data.oldPassword.value, network);
      } catch (error) {
        if (error instanceof PasswordCheckBusyError) return sendOktaError(reply, 503, serviceBusy());
        throw error;
      }
      if (!verified)
        return sendOktaError(
          reply,
          403,
          credentialsUpdateFailed(['oldPassword: The credentials provided were incorrect.']),
        );
      const password = parsed.data.newPassword.value;
      if (!policy.accepts(password, user)) return sendOktaError(reply, 400, passwordRefused());
      await users.setPassword(user.id, password);
      request.log.info({ userId: user.id }, 'users api: password changed by the user');
      return reply.send({ password: {}, provider: { type: 'OKTA', name: 'OKTA' } });
    });

    // Okta ends the IdP sessions and, with oauthTokens=true, the tokens; here both always end.
    app.delete(`${USERS_PATH}/:idOrLogin/sessions`, routeOptions, async (request, reply) => {
      const { idOrLogin } = request.params as { idOrLogin: string };
      const user = await findUser(idOrLogin);
      if (!user) return notFound(reply, idOrLogin);
      await deps.endSessions(user.id);
      return reply.code(204).send();
    });

    // Okta's unlock of a locked-out user; here any user's lockouts are lifted (one not locked has none).
    app.post(`${USERS_PATH}/:idOrLogin/lifecycle/unlock`, routeOptions, async (request, reply) => {
      const { idOrLogin } = request.params as { idOrLogin: string };
      const user = await findUser(idOrLogin);
      if (!user) return notFound(reply, idOrLogin);
      await users.liftLockouts(user.id);
      request.log.info({ userId: user.id }, 'users api: lockouts lifted');
      return reply.send({});
    });

    // Okta deactivates an active user on the first DELETE and deletes them on the second; users here
    // have no deactivated state, so the first deletes and a second finds none (404), as Okta's third.
    app.delete(`${USERS_PATH}/:idOrLogin`, routeOptions, async (request, reply) => {
      const { idOrLogin } = request.params as { idOrLogin: string };
      const user = await findUser(idOrLogin);
      if (!user || !(await deps.deleteUser(user.id))) return notFound(reply, idOrLogin);
      request.log.info({ userId: user.id }, 'users api: user deleted');
      return reply.code(204).send();
    });

    registerFactorsApi(app, { factors: deps.factors, findUser, orgUrl, usersPath: USERS_PATH }, routeOptions);
    registerSystemLogRoute(app, { securityLog: deps.securityLog, users, orgUrl }, routeOptions);

    // Okta's Sessions API, read only: whether the session an ID token names (sid) is still signed in.
    app.get(`${SESSIONS_PATH}/:sessionId`, routeOptions, async (request, reply) => {
      const { sessionId } = request.params as { sessionId: string };
      const session = await deps.findSession(sessionId);
      const user = session && (await users.findById(session.accountId));
      if (!session || !user) return sendOktaError(reply, 404, resourceNotFound(sessionId, 'Session'));
      return reply.send(oktaSession(session, user, orgUrl));
    });

    // Okta's "Revoke a session": 204, or 404 for a session it does not know (ended, expired, unknown).
    app.delete(`${SESSIONS_PATH}/:sessionId`, routeOptions, async (request, reply) => {
      const { sessionId } = request.params as { sessionId: string };
      const session = await deps.findSession(sessionId);
      if (!session || !(await deps.endSession(sessionId, session.accountId))) {
        return sendOktaError(reply, 404, resourceNotFound(sessionId, 'Session'));
      }
      request.log.info({ userId: session.accountId }, 'users api: session revoked');
      return reply.code(204).send();
    });
  };
}
