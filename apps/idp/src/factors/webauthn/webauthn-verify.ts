import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { LoginThrottle } from '../../login-failure-repository.js';
import { sendOktaError } from '../../okta-error-handler.js';
import {
  invalidPasscode,
  invalidToken,
  malformedRequest,
  operationNotAllowed,
  resourceNotFound,
  userLocked,
} from '../../okta-errors.js';
import type { UserRepository } from '../../user-repository.js';
import type { AuthnTransaction, AuthnTransactionRepository } from '../authn-transaction-repository.js';
import type { Factor } from '../factor-repository.js';
import { webauthnChallengeBody } from './webauthn-bodies.js';
import type { WebauthnFactors } from './webauthn-factors.js';

/** What a sign-in verified by a password and a WebAuthn credential says of itself (RFC 8176). */
export const PASSWORD_AND_WEBAUTHN_AMR = ['pwd', 'hwk', 'mfa'];

const Base64Url = z
  .string()
  .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'base64url')
  .max(20_000);

/** Okta's verify body for a WebAuthn factor: none of the three (a challenge), or all of them (an assertion). */
export const WebauthnVerifyFields = z.object({
  clientData: Base64Url.optional(),
  authenticatorData: Base64Url.optional(),
  signatureData: Base64Url.optional(),
});
export type WebauthnVerifyBody = z.infer<typeof WebauthnVerifyFields> & { stateToken: string };

/**
 * The verify call of a WebAuthn factor in a sign-in: without an assertion it hands out a challenge
 * (MFA_REQUIRED or MFA_CHALLENGE -> MFA_CHALLENGE); with one, made on that challenge, it ends the
 * transaction. A refused assertion counts against the lockout as a wrong code does.
 */
export function webauthnVerifyStep(deps: {
  webauthn: WebauthnFactors;
  users: UserRepository;
  transactions: AuthnTransactionRepository;
  throttle: LoginThrottle;
  orgUrl: string;
  logger: FastifyBaseLogger;
}) {
  const { webauthn, users, transactions, throttle, orgUrl, logger } = deps;

  return async function verifyWebauthn(
    request: FastifyRequest,
    reply: FastifyReply,
    network: string,
    transaction: AuthnTransaction,
    factor: Factor,
    body: WebauthnVerifyBody,
    finish: (amr: string[]) => Promise<FastifyReply>,
  ): Promise<FastifyReply> {
    const { stateToken, clientData, authenticatorData, signatureData } = body;
    const log = logger.child({ reqId: request.id, userId: transaction.userId, factorId: factor.id });
    const sameFactor = transaction.status === 'MFA_REQUIRED' || transaction.factorId === factor.id;
    if (!sameFactor) return sendOktaError(reply, 403, operationNotAllowed());

    if (clientData === undefined) {
      const user = await users.findById(transaction.userId);
      const issued = user && (await webauthn.challenge(transaction.userId, factor.id));
      if (!issued) return sendOktaError(reply, 404, resourceNotFound(factor.id, 'UserFactor'));
      const next = await transactions.advance(stateToken, 'MFA_CHALLENGE', factor.id);
      if (!next) return sendOktaError(reply, 401, invalidToken());
      return reply
        .header('Cache-Control', 'no-store')
        .send(
          webauthnChallengeBody(
            orgUrl,
            next.stateToken,
            next.transaction,
            user,
            factor,
            issued.credential,
            issued.challenge,
          ),
        );
    }

    if (transaction.status !== 'MFA_CHALLENGE') return sendOktaError(reply, 403, operationNotAllowed());
    if (authenticatorData === undefined || signatureData === undefined)
      return sendOktaError(
        reply,
        400,
        malformedRequest(['authenticatorData, signatureData: required with clientData']),
      );
    // As for a code: the try is counted before the assertion is checked, and given back if it verifies.
    const reservation = await throttle.reserveCodeCheck(transaction.userId, network);
    if (!reservation.allowed) {
      await transactions.end(stateToken);
      log.warn({ clientNetwork: network }, 'factor verify refused: account locked for this address');
      return sendOktaError(reply, 403, userLocked());
    }
    if (
      await webauthn.verify(transaction.userId, factor.id, { clientData, authenticatorData, signatureData })
    ) {
      await throttle.codeAccepted(transaction.userId, network);
      return finish(PASSWORD_AND_WEBAUTHN_AMR);
    }
    await throttle.codeRefused(transaction.userId, network, reservation);
    log.info({ outcome: 'refused_assertion' }, 'factor verify failed');
    if (reservation.lockedNow) log.warn({ clientNetwork: network }, 'account locked for this address');
    if (reservation.ceilingNow)
      log.warn('account refuses password sign-in: too many wrong passwords or codes');
    return sendOktaError(reply, 403, invalidPasscode());
  };
}

export type WebauthnVerify = ReturnType<typeof webauthnVerifyStep>;
