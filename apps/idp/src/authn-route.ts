import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/rate-limit'; // route config typings: config.rateLimit
import { z } from 'zod';
import { singleLineText } from '@customer-core/contracts';
import { clientAddress } from './client-address.js';
import { createAuthnCors } from './cors.js';
import type { LoginThrottle } from './login-throttle.js';
import {
  authenticationFailed,
  forbidden,
  internalError,
  malformedRequest,
  rateLimited,
  type OktaError,
} from './okta-errors.js';
import { dummyPasswordHash, verifyPassword } from './passwords.js';
import type { SessionTokenStore } from './session-tokens.js';
import type { IdpUser, UserRepository } from './users.js';

export const AUTHN_PATH = '/api/v1/authn';

// Okta's extra fields (options, context, ...) are accepted and ignored.
const AuthnBodySchema = z.object({
  username: singleLineText().min(1).max(320),
  password: singleLineText().min(1).max(1024),
});

export interface AuthnDependencies {
  users: UserRepository;
  throttle: LoginThrottle;
  sessionTokens: SessionTokenStore;
  allowedOrigins: readonly string[];
  trustProxy: boolean;
  logger: FastifyBaseLogger;
}

function successBody(user: IdpUser, token: { sessionToken: string; expiresAt: Date }) {
  return {
    status: 'SUCCESS',
    sessionToken: token.sessionToken,
    expiresAt: token.expiresAt.toISOString(),
    _embedded: {
      user: {
        id: user.id,
        passwordChanged: user.passwordChangedAt.toISOString(),
        profile: {
          login: user.login,
          firstName: user.firstName,
          lastName: user.lastName,
          locale: user.locale,
          timeZone: user.timeZone,
        },
      },
    },
  };
}

/** Okta's Classic Authentication API, the subset okta-auth-js' signInWithCredentials uses. */
export function authnRoutes(deps: AuthnDependencies) {
  const { users, throttle, sessionTokens, logger } = deps;
  const cors = createAuthnCors(deps.allowedOrigins);
  const addressOf = (request: FastifyRequest) => clientAddress(request, deps.trustProxy);

  const sendError = (reply: FastifyReply, status: number, body: OktaError) =>
    reply.code(status).header('Cache-Control', 'no-store').send(body);

  /** Verifies a password the same way whether or not the login exists, so timing tells nothing. */
  async function authenticate(
    username: string,
    password: string,
    address: string,
    log: FastifyBaseLogger,
  ): Promise<IdpUser | undefined> {
    const credentials = await users.findCredentials(username);
    if (!credentials) {
      await verifyPassword(await dummyPasswordHash(), password);
      log.info({ outcome: 'unknown_login' }, 'authn failed');
      return undefined;
    }
    const { user } = credentials;
    const locked = await throttle.isLocked(user.id, address);
    const valid = await verifyPassword(credentials.passwordHash, password);
    if (locked) {
      log.warn({ userId: user.id, clientAddress: address }, 'authn refused: account locked for this address');
      return undefined;
    }
    if (!valid) {
      const lockedNow = await throttle.recordFailure(user.id, address);
      log.info({ userId: user.id, outcome: 'wrong_password' }, 'authn failed');
      if (lockedNow) log.warn({ userId: user.id, clientAddress: address }, 'account locked for this address');
      return undefined;
    }
    if (!(await throttle.recordSuccess(user.id, address))) return undefined;
    return user;
  }

  return async function registerAuthn(app: FastifyInstance): Promise<void> {
    // Errors of these routes (bad JSON, wrong content type, rate limit, bugs) answer in Okta's shape.
    app.setErrorHandler((error: FastifyError, request, reply) => {
      cors.apply(request, reply);
      const status = error.statusCode ?? 500;
      if (status === 429) return sendError(reply, 429, rateLimited());
      if (status < 500) return sendError(reply, status, malformedRequest());
      const body = internalError();
      request.log.error({ err: error, errorId: body.errorId }, 'authn failed unexpectedly');
      return sendError(reply, 500, body);
    });

    app.options(AUTHN_PATH, (request, reply) => cors.preflight(request, reply));

    app.post(
      AUTHN_PATH,
      {
        config: {
          // Per client address, against password spraying; @fastify/rate-limit is registered by the host app.
          rateLimit: { max: 30, timeWindow: '1 minute', keyGenerator: addressOf },
        },
      },
      async (request, reply) => {
        cors.apply(request, reply);
        if (cors.refuses(request)) return sendError(reply, 403, forbidden());
        const parsed = AuthnBodySchema.safeParse(request.body);
        if (!parsed.success) {
          const causes = parsed.error.issues.map(
            (issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`,
          );
          return sendError(reply, 400, malformedRequest(causes));
        }
        const { username, password } = parsed.data;
        const log = logger.child({ reqId: request.id });
        const user = await authenticate(username, password, addressOf(request), log);
        if (!user) return sendError(reply, 401, authenticationFailed());
        const token = await sessionTokens.issue(user.id);
        log.info({ userId: user.id }, 'authn succeeded');
        return reply.header('Cache-Control', 'no-store').send(successBody(user, token));
      },
    );
  };
}
