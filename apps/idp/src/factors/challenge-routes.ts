import type { FastifyInstance, FastifyReply } from 'fastify';
import type { RateLimitOptions } from '@fastify/rate-limit';
import { StateTokenBody } from '@customer-core/contracts/server';
import { sendOktaError } from '../okta-error-handler.js';
import { invalidToken, operationNotAllowed } from '../okta-errors.js';
import type { UserRepository } from '../user-repository.js';
import type { AuthnTransactionRepository } from './authn-transaction-repository.js';
import { FactorIdSchema, type AcceptBody } from './authn-step-bodies.js';
import {
  factorActivateResendPath,
  factorVerifyResendPath,
  isEmailFactor,
  sendAndAdvance,
} from './email-factor-routes.js';
import type { FactorRepository } from './factor-repository.js';
import type { SignInFactors } from './sign-in-factors.js';
import { AUTHN_PREVIOUS_PATH, type TransactionBodies } from './transaction-bodies.js';

/** The paths registered here (the caller answers their CORS preflights). */
export const CHALLENGE_PATHS = [
  AUTHN_PREVIOUS_PATH,
  factorVerifyResendPath(':factorId'),
  factorActivateResendPath(':factorId'),
];

/**
 * The steps around an e-mailed code: another code (Okta's `resend` in MFA_CHALLENGE and in
 * MFA_ENROLL_ACTIVATE), and back from MFA_CHALLENGE to the choice of factors (Okta's `prev`).
 */
export function registerChallengeRoutes(
  app: FastifyInstance,
  ctx: {
    accept: AcceptBody;
    rateLimit: RateLimitOptions;
    users: UserRepository;
    factors: FactorRepository;
    transactions: AuthnTransactionRepository;
    signInFactors: SignInFactors;
    bodies: TransactionBodies;
    emailStep: Parameters<typeof sendAndAdvance>[0] | undefined;
    factorNotFound(reply: FastifyReply, factorId: string): FastifyReply;
  },
): void {
  const { accept, rateLimit, users, factors, transactions, emailStep } = ctx;

  // Another code, within the send limit, for the factor the transaction is waiting on.
  for (const [path, status] of [
    [factorVerifyResendPath(':factorId'), 'MFA_CHALLENGE'],
    [factorActivateResendPath(':factorId'), 'MFA_ENROLL_ACTIVATE'],
  ] as const) {
    app.post(path, { config: { rateLimit } }, async (request, reply) => {
      const body = accept(request, reply, StateTokenBody);
      if (!body.ok) return body.sent;
      const params = FactorIdSchema.safeParse(request.params);
      const { stateToken } = body.value;
      const transaction = await transactions.find(stateToken);
      if (!transaction) return sendOktaError(reply, 401, invalidToken());
      if (transaction.status !== status) return sendOktaError(reply, 403, operationNotAllowed());
      const factorId = params.success ? params.data.factorId : '';
      // Only the factor this transaction is waiting on: never another of the user's, nor anyone else's.
      const factor =
        factorId === transaction.factorId ? await factors.find(transaction.userId, factorId) : undefined;
      const user = await users.findById(transaction.userId);
      if (!factor || !isEmailFactor(factor) || !emailStep) return ctx.factorNotFound(reply, factorId);
      if (!user) return sendOktaError(reply, 401, invalidToken());
      return sendAndAdvance(emailStep, request, reply, { stateToken, user, factor, status });
    });
  }

  // MFA_CHALLENGE -> MFA_REQUIRED.
  app.post(AUTHN_PREVIOUS_PATH, { config: { rateLimit } }, async (request, reply) => {
    const body = accept(request, reply, StateTokenBody);
    if (!body.ok) return body.sent;
    const { stateToken } = body.value;
    const transaction = await transactions.find(stateToken);
    if (!transaction) return sendOktaError(reply, 401, invalidToken());
    if (transaction.status !== 'MFA_CHALLENGE') return sendOktaError(reply, 403, operationNotAllowed());
    const user = await users.findById(transaction.userId);
    const listed = await ctx.signInFactors.listed(transaction.userId);
    const next = await transactions.advance(stateToken, 'MFA_REQUIRED', null);
    if (!user || !next) return sendOktaError(reply, 401, invalidToken());
    return reply
      .header('Cache-Control', 'no-store')
      .send(ctx.bodies.mfaRequired(next.stateToken, next.transaction, user, listed));
  });
}
