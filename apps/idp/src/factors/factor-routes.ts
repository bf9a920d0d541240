import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/rate-limit'; // route config typings: config.rateLimit
import { z } from 'zod';
import { clientAddress, networkOf } from '../client-address.js';
import { createAuthnCors } from '../cors.js';
import type { LoginThrottle } from '../login-throttle.js';
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
import type { SessionTokenStore } from '../session-tokens.js';
import type { UserRepository } from '../users.js';
import type { AuthnTransaction, AuthnTransactions } from './authn-transactions.js';
import { TOTP_FACTOR, type Factor, type FactorStore } from './factor-store.js';
import { PASSWORD_AND_OTP_AMR, signedIn } from './second-factor-step.js';
import { newTotpSecret, totpStepOf } from './totp.js';
import { WEBAUTHN_FACTOR } from './webauthn/webauthn-store.js';
import { WebauthnVerifyFields, type WebauthnVerify } from './webauthn/webauthn-verify.js';
import {
  AUTHN_CANCEL_PATH,
  AUTHN_FACTORS_PATH,
  factorActivatePath,
  factorVerifyPath,
  type TransactionBodies,
} from './transaction-bodies.js';

export interface FactorRouteDependencies {
  users: UserRepository;
  factors: FactorStore;
  transactions: AuthnTransactions;
  sessionTokens: SessionTokenStore;
  throttle: LoginThrottle;
  bodies: TransactionBodies;
  allowedOrigins: readonly string[];
  trustProxy: boolean;
  logger: FastifyBaseLogger;
  /** The verify step of WebAuthn factors; without it they are not verified here. */
  verifyWebauthn?: WebauthnVerify;
}

// Okta's extra fields (rememberDevice, ...) are accepted and ignored.
const StateTokenSchema = z.string().min(1).max(200);
const StateBodySchema = z.object({ stateToken: StateTokenSchema });
const EnrollBodySchema = z.object({
  stateToken: StateTokenSchema,
  factorType: z.string().max(100),
  provider: z.string().max(100),
});
const PassCodeBodySchema = z.object({ stateToken: StateTokenSchema, passCode: z.string().max(100) });
/** A code, or a WebAuthn factor's challenge request or assertion. */
const VerifyBodySchema = WebauthnVerifyFields.extend({
  stateToken: StateTokenSchema,
  passCode: z.string().max(100).optional(),
});
/** Factor ids are letters and digits; anything else is no factor's. */
const FactorIdSchema = z.object({ factorId: z.string().regex(/^[A-Za-z0-9]{1,64}$/) });

type Parsed<T> = { ok: true; value: T } | { ok: false };

/** Okta's factor steps of the Classic Authentication API: enrol and activate TOTP, verify, cancel. */
export function factorRoutes(deps: FactorRouteDependencies) {
  const { users, factors, transactions, sessionTokens, throttle, bodies, logger } = deps;
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
   * code counts as a wrong password does, and a locked account ends the transaction. False when it
   * has answered the refusal (a boolean: a reply is thenable, so an async function cannot return one).
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
    if (await throttle.isLocked(transaction.userId, network)) {
      await transactions.end(stateToken);
      log.warn({ clientNetwork: network }, 'factor verify refused: account locked for this address');
      void sendOktaError(reply, 403, userLocked());
      return false;
    }
    const step = factor.secret ? totpStepOf(factor.secret, passCode) : undefined;
    // A code already used (replayed, or raced by a second request) is refused like a wrong one.
    const claimed = step !== undefined && (await factors.claimTotpStep(factor.id, step));
    if (claimed) return true;
    const { lockedNow, ceilingNow } = await throttle.recordFailure(transaction.userId, network);
    log.info({ outcome: step === undefined ? 'wrong_code' : 'used_code' }, 'factor verify failed');
    if (lockedNow) log.warn({ clientNetwork: network }, 'account locked for this address');
    if (ceilingNow) log.warn('account refuses password sign-in: too many wrong passwords or codes');
    void sendOktaError(reply, 403, invalidPasscode());
    return false;
  }

  /** Ends the transaction with SUCCESS, once: a token used meanwhile gets E0000011. */
  async function finish(
    reply: FastifyReply,
    stateToken: string,
    transaction: AuthnTransaction,
    amr = PASSWORD_AND_OTP_AMR,
  ) {
    const user = await users.findById(transaction.userId);
    if (!user || !(await transactions.end(stateToken))) return sendOktaError(reply, 401, invalidToken());
    const body = await signedIn(sessionTokens, user, {
      amr,
      authenticatedAt: new Date(),
    });
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
    ]) {
      app.options(path, (request, reply) => cors.preflight(request, reply));
    }

    // MFA_ENROLL -> MFA_ENROLL_ACTIVATE: a new TOTP factor and its shared secret.
    app.post(AUTHN_FACTORS_PATH, { config: { rateLimit } }, async (request, reply) => {
      const body = accept(request, reply, EnrollBodySchema);
      if (!body.ok) return body.sent;
      const { stateToken, factorType, provider } = body.value;
      const transaction = await transactions.find(stateToken);
      if (!transaction) return sendOktaError(reply, 401, invalidToken());
      if (transaction.status !== 'MFA_ENROLL') return sendOktaError(reply, 403, operationNotAllowed());
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

    // MFA_REQUIRED -> SUCCESS; a WebAuthn factor goes through MFA_CHALLENGE.
    app.post(factorVerifyPath(':factorId'), { config: { rateLimit } }, async (request, reply) => {
      const body = accept(request, reply, VerifyBodySchema);
      if (!body.ok) return body.sent;
      const params = FactorIdSchema.safeParse(request.params);
      const { stateToken, passCode } = body.value;
      const transaction = await transactions.find(stateToken);
      if (!transaction) return sendOktaError(reply, 401, invalidToken());
      // MFA_CHALLENGE too: after a passkey's challenge the borrower may turn to their app's code.
      if (transaction.status !== 'MFA_REQUIRED' && transaction.status !== 'MFA_CHALLENGE')
        return sendOktaError(reply, 403, operationNotAllowed());
      const factorId = params.success ? params.data.factorId : '';
      const factor = params.success ? await factors.find(transaction.userId, factorId) : undefined;
      if (!factor || factor.status !== 'ACTIVE') return factorNotFound(reply, factorId);
      if (factor.factorType === WEBAUTHN_FACTOR.factorType && deps.verifyWebauthn)
        return deps.verifyWebauthn(
          request,
          reply,
          networkOfRequest(request),
          transaction,
          factor,
          body.value,
          (amr) => finish(reply, stateToken, transaction, amr),
        );
      if (passCode === undefined) return sendOktaError(reply, 400, malformedRequest(['passCode: Required']));
      if (!(await checkCode(request, reply, stateToken, transaction, factor, passCode))) return reply;
      return finish(reply, stateToken, transaction);
    });

    app.post(AUTHN_CANCEL_PATH, { config: { rateLimit } }, async (request, reply) => {
      const body = accept(request, reply, StateBodySchema);
      if (!body.ok) return body.sent;
      if (!(await transactions.end(body.value.stateToken))) return sendOktaError(reply, 401, invalidToken());
      return reply.header('Cache-Control', 'no-store').send({ _embedded: {} });
    });
  };
}
