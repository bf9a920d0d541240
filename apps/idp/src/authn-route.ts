import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/rate-limit'; // route config typings: config.rateLimit
import type { z } from 'zod';
import { AuthnBody, clientAddress, networkOf, type AuthnAnswer } from '@customer-core/contracts/server';
import { createAuthnCors } from './cors.js';
import type { IdpMetrics, PasswordSignInOutcome } from './idp-metrics.js';
import type { LoginThrottle } from './login-failure-repository.js';
import { oktaErrorHandler, sendOktaError } from './okta-error-handler.js';
import { authenticationFailed, forbidden, malformedRequest, serviceBusy } from './okta-errors.js';
import { reservePasswordCheck, type PasswordCheck, type PasswordHasher } from './passwords.js';
import type { IssueCondition, SessionTokenRepository } from './session-token-repository.js';
import type { IdpUser, UserRepository } from './user-repository.js';

export const AUTHN_PATH = '/api/v1/authn';

export interface AuthnDependencies {
  users: UserRepository;
  throttle: LoginThrottle;
  sessionTokens: SessionTokenRepository;
  allowedOrigins: readonly string[];
  trustProxy: boolean;
  logger: FastifyBaseLogger;
  /** Sign-ins that may wait for a core to check their password; past it they are refused with 503. */
  signInQueueDepth: number;
  /** The provider's hasher: an unknown login is checked against its dummy hash, at the cost of real ones. */
  passwords: PasswordHasher;
  /**
   * What a right password leads to when the sign-in goes on to a second factor: whether it does
   * (`asked`, an expression for the statement that would issue the session token) and the factor's
   * state (`next`). Without it, SUCCESS.
   */
  secondFactor?: {
    asked: (userId: string) => IssueCondition;
    next: (user: IdpUser) => Promise<{ status: string }>;
  };
  metrics?: IdpMetrics;
}

/** The account id an unknown login is looked up with: none has it (ids are UUIDs). */
const NO_ACCOUNT = '';

/** What a refused sign-in is told to wait: a full line of password checks drains in about a second. */
const BUSY_RETRY_AFTER_SECONDS = 2;

export function successBody(user: IdpUser, token: { sessionToken: string; expiresAt: Date }) {
  const answer = {
    status: 'SUCCESS' as const,
    sessionToken: token.sessionToken,
    expiresAt: token.expiresAt.toISOString(),
    _embedded: { user: embeddedUser(user) },
  };
  // Every field the API reads of an authn answer is in it.
  return answer satisfies z.input<typeof AuthnAnswer>;
}

/** The user as Okta's authn answers embed it, in SUCCESS and in every factor state. */
export function embeddedUser(user: IdpUser) {
  return {
    id: user.id,
    passwordChanged: user.passwordChangedAt.toISOString(),
    profile: {
      login: user.login,
      firstName: user.firstName,
      lastName: user.lastName,
      locale: user.locale,
      timeZone: user.timeZone,
    },
  };
}

/** Okta's Classic Authentication API, the subset okta-auth-js' signInWithCredentials uses. */
export function authnRoutes(deps: AuthnDependencies) {
  const { users, throttle, sessionTokens, logger, metrics } = deps;
  const count = (outcome: PasswordSignInOutcome) => metrics?.signIn('password', outcome);
  const onTurn = metrics && ((seconds: number) => metrics.passwordCheckWaited(seconds));
  const cors = createAuthnCors(deps.allowedOrigins);
  // Limits and lockouts count per client network: an IPv4 address, or an IPv6 address's /64.
  const networkOfRequest = (request: FastifyRequest) => networkOf(clientAddress(request, deps.trustProxy));

  // One warning per 10 s while sign-ins are refused, not one a request: a flood would flood the log.
  let refusedSinceWarning = 0;
  let lastWarningAt = 0;
  const sendBusy = (request: FastifyRequest, reply: FastifyReply) => {
    cors.apply(request, reply);
    refusedSinceWarning += 1;
    count('busy');
    if (Date.now() - lastWarningAt >= 10_000) {
      logger.warn(
        { refused: refusedSinceWarning, queueDepth: deps.signInQueueDepth },
        'authn refused: password checks are queued to the limit',
      );
      refusedSinceWarning = 0;
      lastWarningAt = Date.now();
    }
    reply.header('Retry-After', String(BUSY_RETRY_AFTER_SECONDS));
    return sendOktaError(reply, 503, serviceBusy());
  };

  /** A right password's user, and the session token when no second factor is asked. */
  type PasswordRight = { user: IdpUser; token?: { sessionToken: string; expiresAt: Date } };

  /**
   * Verifies a password the same way whether or not the login exists and whether or not a lockout
   * holds: the same statements in the same order, and one argon2id check, so timing tells nothing.
   */
  async function authenticate(
    username: string,
    password: string,
    network: string,
    check: PasswordCheck,
    log: FastifyBaseLogger,
    userAgent: string | undefined,
  ): Promise<PasswordRight | PasswordSignInOutcome> {
    // The account and its lockout in one statement; an unknown login goes through the same statements
    // with an id no account has: they find no row.
    const { credentials, locked } = await users.findCredentialsAndLock(
      username,
      (userId) => throttle.lockedNow(userId, network),
      NO_ACCOUNT,
    );
    const accountId = credentials?.user.id ?? NO_ACCOUNT;
    const valid = await check.verify(
      credentials?.passwordHash ?? (await deps.passwords.dummyHash()),
      password,
    );
    if (credentials && valid && !locked) {
      // The streak ended, the lockout checked again and the session token issued: one statement.
      const { streakEnded, locked: lockedMeanwhile } = throttle.passwordRight(accountId, network);
      const right = await sessionTokens.issueAfterPassword(accountId, {
        alongside: streakEnded,
        locked: lockedMeanwhile,
        ...(deps.secondFactor && { factorAsked: deps.secondFactor.asked(accountId) }),
      });
      if (!right.locked) return { user: credentials.user, ...(right.token && { token: right.token }) };
      log.warn(
        { userId: accountId, clientNetwork: network },
        'authn refused: account locked for this address',
      );
      return 'locked';
    }
    const { lockedNow, ceilingNow } = await throttle.recordFailure(accountId, network, userAgent);
    if (!credentials) log.info({ outcome: 'unknown_login' }, 'authn failed');
    else if (locked)
      log.warn(
        { userId: accountId, clientNetwork: network },
        'authn refused: account locked for this address',
      );
    else log.info({ userId: accountId, outcome: 'wrong_password' }, 'authn failed');
    if (lockedNow) log.warn({ userId: accountId, clientNetwork: network }, 'account locked for this address');
    if (ceilingNow)
      log.warn({ userId: accountId }, 'account refuses password sign-in: too many wrong passwords');
    return !credentials ? 'unknown_login' : locked ? 'locked' : 'wrong_password';
  }

  return async function registerAuthn(app: FastifyInstance): Promise<void> {
    // Errors of these routes (bad JSON, wrong content type, rate limit, bugs) answer in Okta's shape.
    app.setErrorHandler(oktaErrorHandler('authn', cors.apply));

    app.options(AUTHN_PATH, (request, reply) => cors.preflight(request, reply));

    app.post(
      AUTHN_PATH,
      {
        // While the line is full, refuse before anything else is spent on the request (the rate
        // limit's query comes after this hook); the handler then takes its own place in line.
        onRequest: async (request, reply) => {
          const probe = reservePasswordCheck(deps.signInQueueDepth);
          probe?.release();
          if (!probe) return sendBusy(request, reply);
        },
        config: {
          // Per client network, against password spraying; counted in the database (the provider's plugin).
          rateLimit: {
            max: 30,
            timeWindow: '1 minute',
            keyGenerator: (request) => `authn:${networkOfRequest(request)}`,
          },
        },
      },
      async (request, reply) => {
        cors.apply(request, reply);
        if (cors.refuses(request)) return sendOktaError(reply, 403, forbidden());
        const parsed = AuthnBody.safeParse(request.body);
        if (!parsed.success) {
          const causes = parsed.error.issues.map(
            (issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`,
          );
          return sendOktaError(reply, 400, malformedRequest(causes));
        }
        const { username, password } = parsed.data;
        const log = logger.child({ reqId: request.id });
        const check = reservePasswordCheck(deps.signInQueueDepth, onTurn);
        if (!check) return sendBusy(request, reply);
        let right: PasswordRight | PasswordSignInOutcome;
        try {
          right = await authenticate(
            username,
            password,
            networkOfRequest(request),
            check,
            log,
            request.headers['user-agent'],
          );
        } finally {
          check.release();
        }
        if (typeof right === 'string') {
          count(right);
          return sendOktaError(reply, 401, authenticationFailed());
        }
        const { user, token } = right;
        // No token: a second factor was asked (without one, a right password always gets a token).
        const body = token ? successBody(user, token) : await deps.secondFactor!.next(user);
        count(body.status === 'SUCCESS' ? 'success' : 'factor_required');
        log.info({ userId: user.id, status: body.status }, 'authn succeeded');
        return reply.header('Cache-Control', 'no-store').send(body);
      },
    );
  };
}
