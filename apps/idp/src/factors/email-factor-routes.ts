import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { EMAIL_FACTOR } from '@customer-core/contracts/server';
import { embeddedUser } from '../authn-route.js';
import { sendOktaError } from '../okta-error-handler.js';
import { rateLimited } from '../okta-errors.js';
import type { IdpUser } from '../user-repository.js';
import type {
  AuthnTransaction,
  AuthnTransactionRepository,
  TransactionStatus,
} from './authn-transaction-repository.js';
import {
  EMAIL_CODE_TTL_SECONDS,
  maskedEmail,
  type FactorCodeMail,
  type FactorCodeMailer,
} from './email-factor.js';
import type { EmailCodeRepository } from './email-code-repository.js';
import type { Factor } from './factor-repository.js';
import {
  AUTHN_CANCEL_PATH,
  AUTHN_PREVIOUS_PATH,
  factorActivatePath,
  factorVerifyPath,
  post,
  transactionHead,
} from './transaction-bodies.js';

export const factorVerifyResendPath = (factorId: string) => `${factorVerifyPath(factorId)}/resend`;
export const factorActivateResendPath = (factorId: string) => `${factorActivatePath(factorId)}/resend`;

export const isEmailFactor = (factor: Pick<Factor, 'factorType'>) =>
  factor.factorType === EMAIL_FACTOR.factorType;

/** Mails a new code for an e-mail factor; false when the factor has had its sends for now. */
export function emailCodeSender(
  codes: EmailCodeRepository,
  mailer: FactorCodeMailer,
  logger: FastifyBaseLogger,
) {
  return async function send(user: IdpUser, factor: Factor, purpose: FactorCodeMail['purpose']) {
    const code = await codes.issue(factor.id);
    if (code === undefined) {
      logger.info({ userId: user.id, factorId: factor.id }, 'e-mail code refused: too many sent');
      return false;
    }
    await mailer({
      to: user.login,
      firstName: user.firstName,
      locale: user.locale,
      code,
      expiresInMinutes: EMAIL_CODE_TTL_SECONDS / 60,
      purpose,
    });
    logger.info({ userId: user.id, factorId: factor.id, purpose }, 'e-mail code sent');
    return true;
  };
}

export type EmailCodeSender = ReturnType<typeof emailCodeSender>;

/** Okta's answers while an e-mailed code is awaited (okta-signin-widget's recorded `..._email` ones). */
export function emailBodies(orgUrl: string) {
  const cancel = post(`${orgUrl}${AUTHN_CANCEL_PATH}`);
  const factorOf = (factor: Factor, user: IdpUser) => ({
    id: factor.id,
    factorType: factor.factorType,
    provider: factor.provider,
    vendorName: factor.provider,
    profile: { email: maskedEmail(user.login) },
  });
  return {
    /** MFA_CHALLENGE: the code is on its way; `next` (verify) takes it, `resend` mails another. */
    challenge(stateToken: string, transaction: AuthnTransaction, user: IdpUser, factor: Factor) {
      return {
        ...transactionHead(stateToken, transaction),
        _embedded: {
          user: embeddedUser(user),
          factor: { ...factorOf(factor, user), _embedded: { verification: null } },
        },
        _links: {
          next: { name: 'verify', ...post(`${orgUrl}${factorVerifyPath(factor.id)}`) },
          cancel,
          prev: post(`${orgUrl}${AUTHN_PREVIOUS_PATH}`),
          resend: [{ name: 'email', ...post(`${orgUrl}${factorVerifyResendPath(factor.id)}`) }],
        },
      };
    },

    /** MFA_ENROLL_ACTIVATE: the first code confirms the address; `resend` mails another. */
    enrollActivate(stateToken: string, transaction: AuthnTransaction, user: IdpUser, factor: Factor) {
      return {
        ...transactionHead(stateToken, transaction),
        _embedded: { user: embeddedUser(user), factor: factorOf(factor, user) },
        _links: {
          next: { name: 'activate', ...post(`${orgUrl}${factorActivatePath(factor.id)}`) },
          cancel,
          resend: [{ name: 'email', ...post(`${orgUrl}${factorActivateResendPath(factor.id)}`) }],
        },
      };
    },
  };
}

export type EmailBodies = ReturnType<typeof emailBodies>;

/**
 * Sends a code and moves the transaction on to `status` (MFA_CHALLENGE or MFA_ENROLL_ACTIVATE) for
 * the factor, answering the state's body; 429 past the send limit, 401 for a token no longer current.
 */
export async function sendAndAdvance(
  deps: {
    send: EmailCodeSender;
    transactions: AuthnTransactionRepository;
    bodies: EmailBodies;
    invalidToken: (reply: FastifyReply) => FastifyReply;
  },
  request: FastifyRequest,
  reply: FastifyReply,
  step: { stateToken: string; user: IdpUser; factor: Factor; status: TransactionStatus },
) {
  const { stateToken, user, factor, status } = step;
  // Past the send limit the token stays current: the code mailed before still works.
  if (!(await deps.send(user, factor, status === 'MFA_CHALLENGE' ? 'sign-in' : 'enrol'))) {
    request.log.info({ factorId: factor.id }, 'e-mail code not sent: send limit reached');
    return sendOktaError(reply, 429, rateLimited());
  }
  const next = await deps.transactions.advance(stateToken, status, factor.id);
  if (!next) return deps.invalidToken(reply);
  const body =
    status === 'MFA_CHALLENGE'
      ? deps.bodies.challenge(next.stateToken, next.transaction, user, factor)
      : deps.bodies.enrollActivate(next.stateToken, next.transaction, user, factor);
  return reply.header('Cache-Control', 'no-store').send(body);
}
