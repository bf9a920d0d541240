import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/rate-limit'; // route config typings: config.rateLimit
import { z } from 'zod';
import {
  clientAddress,
  EMAIL_FACTOR,
  networkOf,
  StateTokenBody,
  StateTokenSchema,
  TOTP_FACTOR,
} from '@customer-core/contracts/server';
import { createAuthnCors } from '../cors.js';
import type { LoginThrottle } from '../login-failure-repository.js';
import { oktaErrorHandler, sendOktaError } from '../okta-error-handler.js';
import {
  forbidden,
  invalidPasscode,
  invalidToken,
  malformedRequest,
  operationNotAllowed,
  resourceNotFound,
  userLocked,
} from '../okta-errors.js';
import type { SessionTokenRepository } from '../session-token-repository.js';
import type { UserRepository } from '../user-repository.js';
import type { AuthnTransaction, AuthnTransactionRepository } from './authn-transaction-repository.js';
import { FactorIdSchema, type Parsed } from './authn-step-bodies.js';
import { CHALLENGE_PATHS, registerChallengeRoutes } from './challenge-routes.js';
import {
  isEmailFactor,
  sendAndAdvance,
  type EmailBodies,
  type EmailCodeSender,
} from './email-factor-routes.js';
import type { CheckFactorCode } from './factor-codes.js';
import type { Factor, FactorRepository } from './factor-repository.js';
import { PASSWORD_AND_OTP_AMR, signedIn, transactionAmr } from './second-factor-step.js';
import { RECOVERY_CODE_FACTOR } from './recovery-codes.js';
import type { SignInFactors } from './sign-in-factors.js';
import { newTotpSecret } from './totp.js';
import { WEBAUTHN_FACTOR } from './webauthn/webauthn-repository.js';
import { WebauthnVerifyFields, type WebauthnVerify } from './webauthn/webauthn-verify.js';
import {
  AUTHN_CANCEL_PATH,
  AUTHN_FACTORS_PATH,
  AUTHN_INTROSPECT_PATH,
  factorActivatePath,
  factorVerifyPath,
  type TransactionBodies,
} from './transaction-bodies.js';

export interface FactorRouteDependencies {
  users: UserRepository;
  factors: FactorRepository;
  transactions: AuthnTransactionRepository;
  sessionTokens: SessionTokenRepository;
  throttle: LoginThrottle;
  bodies: TransactionBodies;
  checkCode: CheckFactorCode;
  signInFactors: SignInFactors;
  /** E-mail factors: absent where the provider cannot send mail. */
  email: { send: EmailCodeSender; bodies: EmailBodies } | undefined;
  allowedOrigins: readonly string[];
  trustProxy: boolean;
  logger: FastifyBaseLogger;
  /** The verify step of WebAuthn factors; without it they are not verified here. */
  verifyWebauthn?: WebauthnVerify;
}

const EnrollBodySchema = z.object({
  stateToken: StateTokenSchema,
  factorType: z.string().max(100),
  provider: z.string().max(100),
});
const PassCodeBodySchema = z.object({ stateToken: StateTokenSchema, passCode: z.string().max(100) });
/** A code (none: an e-mail factor mails one), or a WebAuthn factor's challenge request or assertion. */
const VerifyBodySchema = WebauthnVerifyFields.extend({
  stateToken: StateTokenSchema,
  passCode: z.string().max(100).optional(),
});

/**
 * Okta's factor steps of the Classic Authentication API: enrol and activate TOTP or e-mail, verify
 * (with recovery codes too), resend an e-mailed code, back to the choice of factors, cancel.
 */
export function factorRoutes(deps: FactorRouteDependencies) {
  const { users, factors, transactions, sessionTokens, throttle, bodies, logger, email } = deps;
  const cors = createAuthnCors(deps.allowedOrigins);
  const networkOfRequest = (request: FastifyRequest) => networkOf(clientAddress(request, deps.trustProxy));
  const rateLimit = {
    max: 30,
    timeWindow: '1 minute',
    keyGenerator: (request: FastifyRequest) => `authn-factor:${networkOfRequest(request)}`,
  };

  /** CORS, the origin check and the body: the answer to send, or the parsed body. */
  function accept<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    schema: z.ZodType<T>,
  ): Parsed<T> & { sent?: FastifyReply } {
    cors.apply(request, reply);
    if (cors.refuses(request)) return { ok: false, sent: sendOktaError(reply, 403, forbidden()) };
    const parsed = schema.safeParse(request.body);
    if (!parsed.success) {
      const causes = parsed.error.issues.map(
        (issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`,
      );
      return { ok: false, sent: sendOktaError(reply, 400, malformedRequest(causes)) };
    }
    return { ok: true, value: parsed.data };
  }

  const factorNotFound = (reply: FastifyReply, factorId: string) =>
    sendOktaError(reply, 404, resourceNotFound(factorId, 'UserFactor'));

  /**
   * Checks a one-time code for the transaction's user and factor, under the sign-in lockout: a wrong
   * code counts as a wrong password does, and a locked account ends the transaction. The try is
   * counted before the code is checked (one statement decides and counts), so concurrent codes cannot
   * pass the limits together; a right one gives it back. False when it has answered the refusal (a
   * boolean: a reply is thenable, so an async function cannot return one).
   */
  async function checkCode(
    request: FastifyRequest,
    reply: FastifyReply,
    stateToken: string,
    transaction: AuthnTransaction,
    factor: Factor,
    passCode: string,
  ): Promise<boolean> {
    const network = networkOfRequest(request);
    const log = logger.child({ reqId: request.id, userId: transaction.userId, factorId: factor.id });
    const reservation = await throttle.reserveCodeCheck(transaction.userId, network);
    if (!reservation.allowed) {
      await transactions.end(stateToken);
      log.warn({ clientNetwork: network }, 'factor verify refused: account locked for this address');
      void sendOktaError(reply, 403, userLocked());
      return false;
    }
    const outcome = await deps.checkCode(factor, passCode);
    if (outcome === 'accepted') {
      await throttle.codeAccepted(transaction.userId, network);
      return true;
    }
    await throttle.codeRefused(transaction.userId, network, reservation);
    log.info({ outcome, factorType: factor.factorType }, 'factor verify failed');
    if (reservation.lockedNow) log.warn({ clientNetwork: network }, 'account locked for this address');
    if (reservation.ceilingNow)
      log.warn('account refuses password sign-in: too many wrong passwords or codes');
    void sendOktaError(reply, 403, invalidPasscode());
    return false;
  }

  /**
   * Ends the transaction with SUCCESS, once: a token used meanwhile gets E0000011. After a recovery
   * code, `_embedded.recoveryCodes` says how many are left (the provider's own field, as the factor is).
   * `amr`: the factor's methods as after a password (the transaction's first proof replaces pwd).
   */
  async function finish(
    reply: FastifyReply,
    stateToken: string,
    transaction: AuthnTransaction,
    factor?: Factor,
    amr = PASSWORD_AND_OTP_AMR,
  ) {
    const user = await users.findById(transaction.userId);
    if (!user || !(await transactions.end(stateToken))) return sendOktaError(reply, 401, invalidToken());
    const success = await signedIn(sessionTokens, user, {
      amr: transactionAmr(transaction, amr),
      authenticatedAt: new Date(),
    });
    const body =
      factor?.factorType === RECOVERY_CODE_FACTOR.factorType
        ? {
            ...success,
            _embedded: {
              ...success._embedded,
              recoveryCodes: { remaining: await deps.signInFactors.recoveryCodesLeft(user.id) },
            },
          }
        : success;
    logger.info({ userId: user.id }, 'authn succeeded with a second factor');
    return reply.header('Cache-Control', 'no-store').send(body);
  }

  return async function registerFactorRoutes(app: FastifyInstance): Promise<void> {
    app.setErrorHandler(oktaErrorHandler('authn factors', cors.apply));
    for (const path of [
      AUTHN_FACTORS_PATH,
      factorVerifyPath(':factorId'),
      factorActivatePath(':factorId'),
      AUTHN_CANCEL_PATH,
      ...CHALLENGE_PATHS,
    ]) {
      app.options(path, (request, reply) => cors.preflight(request, reply));
    }

    const invalidTokenReply = (reply: FastifyReply) => sendOktaError(reply, 401, invalidToken());
    const emailStep = email && { ...email, transactions, invalidToken: invalidTokenReply };

    // MFA_ENROLL -> MFA_ENROLL_ACTIVATE: a new TOTP factor and its shared secret, or a new e-mail
    // factor and its first code mailed.
    app.post(AUTHN_FACTORS_PATH, { config: { rateLimit } }, async (request, reply) => {
      const body = accept(request, reply, EnrollBodySchema);
      if (!body.ok) return body.sent;
      const { stateToken, factorType, provider } = body.value;
      const transaction = await transactions.find(stateToken);
      if (!transaction) return sendOktaError(reply, 401, invalidToken());
      if (transaction.status !== 'MFA_ENROLL') return sendOktaError(reply, 403, operationNotAllowed());
      const wantsEmail = factorType === EMAIL_FACTOR.factorType && provider === EMAIL_FACTOR.provider;
      if (wantsEmail && emailStep) {
        const user = await users.findById(transaction.userId);
        if (!user) return sendOktaError(reply, 401, invalidToken());
        const factor = await factors.createPending(user.id, EMAIL_FACTOR, null);
        logger.info({ reqId: request.id, userId: user.id, factorId: factor.id }, 'factor enrolment started');
        return sendAndAdvance(emailStep, request, reply, {
          stateToken,
          user,
          factor,
          status: 'MFA_ENROLL_ACTIVATE',
        });
      }
      if (factorType !== TOTP_FACTOR.factorType || provider !== TOTP_FACTOR.provider) {
        return sendOktaError(
          reply,
          400,
          malformedRequest([`factorType: ${factorType} from ${provider} is not offered`]),
        );
      }
      const user = await users.findById(transaction.userId);
      if (!user) return sendOktaError(reply, 401, invalidToken());
      const factor = await factors.createPendingTotp(user.id, newTotpSecret());
      const next = await transactions.advance(stateToken, 'MFA_ENROLL_ACTIVATE', factor.id);
      if (!next) return sendOktaError(reply, 401, invalidToken());
      logger.info({ reqId: request.id, userId: user.id, factorId: factor.id }, 'factor enrolment started');
      return reply
        .header('Cache-Control', 'no-store')
        .send(bodies.totpEnrollActivate(next.stateToken, next.transaction, user, factor));
    });

    // MFA_ENROLL_ACTIVATE -> SUCCESS: the first code confirms the factor.
    app.post(factorActivatePath(':factorId'), { config: { rateLimit } }, async (request, reply) => {
      const body = accept(request, reply, PassCodeBodySchema);
      if (!body.ok) return body.sent;
      const params = FactorIdSchema.safeParse(request.params);
      const { stateToken, passCode } = body.value;
      const transaction = await transactions.find(stateToken);
      if (!transaction) return sendOktaError(reply, 401, invalidToken());
      if (transaction.status !== 'MFA_ENROLL_ACTIVATE')
        return sendOktaError(reply, 403, operationNotAllowed());
      const factorId = params.success ? params.data.factorId : '';
      // Only the factor this transaction enrols: never another of the user's, nor anyone else's.
      const factor =
        factorId === transaction.factorId ? await factors.find(transaction.userId, factorId) : undefined;
      if (!factor || factor.status !== 'PENDING_ACTIVATION') return factorNotFound(reply, factorId);
      if (!(await checkCode(request, reply, stateToken, transaction, factor, passCode))) return reply;
      logger.info({ reqId: request.id, userId: factor.userId, factorId }, 'factor activated');
      return finish(reply, stateToken, transaction);
    });

    // MFA_REQUIRED or MFA_CHALLENGE -> SUCCESS; an e-mail factor without a code -> MFA_CHALLENGE, and a
    // WebAuthn factor goes through MFA_CHALLENGE. After a challenge the borrower may turn to another factor.
    app.post(factorVerifyPath(':factorId'), { config: { rateLimit } }, async (request, reply) => {
      const body = accept(request, reply, VerifyBodySchema);
      if (!body.ok) return body.sent;
      const params = FactorIdSchema.safeParse(request.params);
      const { stateToken, passCode } = body.value;
      const transaction = await transactions.find(stateToken);
      if (!transaction) return sendOktaError(reply, 401, invalidToken());
      if (transaction.status !== 'MFA_REQUIRED' && transaction.status !== 'MFA_CHALLENGE')
        return sendOktaError(reply, 403, operationNotAllowed());
      const factorId = params.success ? params.data.factorId : '';
      const factor = params.success ? await deps.signInFactors.find(transaction.userId, factorId) : undefined;
      if (!factor) return factorNotFound(reply, factorId);
      if (factor.factorType === WEBAUTHN_FACTOR.factorType && deps.verifyWebauthn)
        return deps.verifyWebauthn(
          request,
          reply,
          networkOfRequest(request),
          transaction,
          factor,
          body.value,
          (amr) => finish(reply, stateToken, transaction, factor, amr),
        );
      if (passCode === undefined) {
        const user = await users.findById(transaction.userId);
        if (!user) return sendOktaError(reply, 401, invalidToken());
        if (!isEmailFactor(factor) || !emailStep)
          return sendOktaError(reply, 400, malformedRequest(['passCode: Required']));
        return sendAndAdvance(emailStep, request, reply, {
          stateToken,
          user,
          factor,
          status: 'MFA_CHALLENGE',
        });
      }
      if (!(await checkCode(request, reply, stateToken, transaction, factor, passCode))) return reply;
      return finish(reply, stateToken, transaction, factor);
    });

    registerChallengeRoutes(app, {
      accept,
      rateLimit,
      users,
      factors,
      transactions,
      signInFactors: deps.signInFactors,
      bodies,
      emailStep,
      factorNotFound,
    });

    // The transaction's current state, the state token unchanged: how the portal picks up a
    // transaction the API began after an e-mailed link. Only its opening states are answered; a
    // transaction further on is driven by the answers it already got.
    app.post(AUTHN_INTROSPECT_PATH, { config: { rateLimit } }, async (request, reply) => {
      const body = accept(request, reply, StateTokenBody);
      if (!body.ok) return body.sent;
      const { stateToken } = body.value;
      const transaction = await transactions.find(stateToken);
      const user = transaction && (await users.findById(transaction.userId));
      if (!transaction || !user) return sendOktaError(reply, 401, invalidToken());
      reply.header('Cache-Control', 'no-store');
      if (transaction.status === 'MFA_REQUIRED')
        return reply.send(
          bodies.mfaRequired(stateToken, transaction, user, await deps.signInFactors.listed(user.id)),
        );
      if (transaction.status === 'MFA_ENROLL')
        return reply.send(bodies.mfaEnroll(stateToken, transaction, user, email !== undefined));
      return sendOktaError(reply, 403, operationNotAllowed());
    });

    app.post(AUTHN_CANCEL_PATH, { config: { rateLimit } }, async (request, reply) => {
      const body = accept(request, reply, StateTokenBody);
      if (!body.ok) return body.sent;
      if (!(await transactions.end(body.value.stateToken))) return sendOktaError(reply, 401, invalidToken());
      return reply.header('Cache-Control', 'no-store').send({ _embedded: {} });
    });
  };
}
