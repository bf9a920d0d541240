import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACCOUNT_ERROR_CODES,
  TOO_MANY_CHANGES_MESSAGE,
  PASSKEY_ERROR_CODES,
  passkeyEndpoints,
  FactorIdParamsSchema,
  SECOND_FACTOR_ERROR_CODES,
  secondFactorEndpoints,
} from '@customer-core/contracts';
import type { SecondFactorOutcome, SecondFactorProblem, SecondFactors } from '../second-factors.js';
import { borrowerClaimsOf, requireBorrower } from '../../session/signed-in-borrower.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import { changeSourceOf } from './change-source.js';
import type { AccessTokenChecker } from '../../session/access-tokens.js';
import { stepUpRefusal, type StepUpGuard } from '../step-up.js';

// The signed-in borrower's second factors. Another borrower's factor, an unknown id and a malformed
// one get the same 404; MFA_POLICY=off refuses every route.

const OFF = 'Two-step verification isn’t offered for this portal.';
const NOT_FOUND = 'You don’t have a sign-in step with that id.';
const WITH_LENDER = 'Passkeys for this portal are added with us. Call us to add one.';
const PASSKEY_REFUSED =
  'We couldn’t add that passkey. It may be one you’ve added already. Try again, or use another device.';
const WRONG_CODE = 'That code didn’t work. Check your app and enter the code it shows now.';
const ALREADY_ADDED = 'You already have this sign-in step. Remove it first to add it again.';
const WRONG_EMAIL_CODE =
  'That code didn’t work. Check your email and enter the newest code (codes last 5 minutes).';
const NOT_OFFERED = 'Email codes aren’t offered for your account. Use an authenticator app instead.';
const TOO_MANY_CODES = 'We’ve sent several codes just now. Use the newest one, or try again in 15 minutes.';
const LAST_FACTOR =
  'You need an authenticator app to sign in, so you can’t remove your only one. Call us if you’ve lost it.';
const NO_IDENTITY = 'Your account doesn’t sign in with a password with us, so you can’t add an app here.';
const WRONG_PASSWORD = 'That isn’t your current password. Check it and try again.';
const TOO_MANY_WRONG_CODES = 'That’s too many wrong codes, so we’ve stopped this one. Start adding it again.';
const STEP_UP_MESSAGE = 'To add a sign-in step, confirm it’s you.';
const PASSKEY_STEP_UP_MESSAGE = 'To add a passkey, confirm it’s you.';

/** The directory's and the policy's refusals, as the answers the account page tells apart. */
export function refusalOf(problem: Exclude<SecondFactorProblem, 'step_up_required'>): HttpError {
  switch (problem) {
    case 'off':
      return new HttpError(403, SECOND_FACTOR_ERROR_CODES.off, OFF);
    case 'too_many_changes':
      return new HttpError(429, ACCOUNT_ERROR_CODES.tooManyChanges, TOO_MANY_CHANGES_MESSAGE);
    case 'factor_not_found':
      return new HttpError(404, 'not_found', NOT_FOUND);
    case 'too_many_wrong_codes':
      return new HttpError(400, SECOND_FACTOR_ERROR_CODES.tooManyWrongCodes, TOO_MANY_WRONG_CODES);
    case 'wrong_email_code':
      return new HttpError(400, SECOND_FACTOR_ERROR_CODES.wrongCode, WRONG_EMAIL_CODE);
    case 'wrong_code':
      return new HttpError(400, SECOND_FACTOR_ERROR_CODES.wrongCode, WRONG_CODE);
    case 'factor_already_enrolled':
      return new HttpError(400, SECOND_FACTOR_ERROR_CODES.alreadyAdded, ALREADY_ADDED);
    case 'factor_not_offered':
      return new HttpError(400, SECOND_FACTOR_ERROR_CODES.notOffered, NOT_OFFERED);
    case 'too_many_codes':
      return new HttpError(429, SECOND_FACTOR_ERROR_CODES.tooManyCodes, TOO_MANY_CODES);
    case 'last_factor':
      return new HttpError(400, SECOND_FACTOR_ERROR_CODES.lastFactor, LAST_FACTOR);
    case 'no_directory_identity':
      return new HttpError(400, ACCOUNT_ERROR_CODES.noPassword, NO_IDENTITY);
    case 'passkeys_with_lender':
      return new HttpError(403, PASSKEY_ERROR_CODES.withLender, WITH_LENDER);
    case 'passkey_refused':
      return new HttpError(400, PASSKEY_ERROR_CODES.refused, PASSKEY_REFUSED);
    case 'wrong_password':
      return new HttpError(400, ACCOUNT_ERROR_CODES.wrongPassword, WRONG_PASSWORD);
  }
}

/** What went through, or the refusal thrown as the route's answer (`stepUpMessage` for a step-up). */
function answer<T extends object>(
  outcome: SecondFactorOutcome<T>,
  stepUpMessage = STEP_UP_MESSAGE,
): Extract<SecondFactorOutcome<T>, { ok: true }> {
  if (outcome.ok) return outcome;
  if (outcome.problem === 'step_up_required') throw stepUpRefusal(stepUpMessage);
  throw refusalOf(outcome.problem);
}

/** A malformed id names no factor: the unknown id's 404, before any call to the directory. */
function factorIdOf(params: { factorId: string }): string {
  const parsed = FactorIdParamsSchema.safeParse(params);
  if (!parsed.success) throw new HttpError(404, 'not_found', NOT_FOUND);
  return parsed.data.factorId;
}

export const accountSecondFactorRoutes =
  ({
    secondFactors,
    checkAccessToken,
    stepUp,
    trustProxy,
  }: {
    secondFactors: SecondFactors;
    checkAccessToken: AccessTokenChecker;
    stepUp: StepUpGuard;
    trustProxy: boolean;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const changeSource = (request: FastifyRequest) => changeSourceOf(request, trustProxy);
    // Adding a way to sign in takes a recent sign-in, as changing the email does: asked by the
    // service once it knows the addition can be made here (no step-up for what would be refused).
    const recentSignIn = (request: FastifyRequest, action: string) => () =>
      stepUp.isRecent(request, { action });
    // Before the body is read: a caller without a token learns nothing of what it would accept.
    const common = { onRequest: requireBorrower(checkAccessToken) };
    app.addHook('onSend', async (_request, reply) => void reply.header('cache-control', 'no-store'));

    app.route({
      ...endpointRoute(secondFactorEndpoints.list),
      ...common,
      handler: async (request) => {
        const { sub } = borrowerClaimsOf(request);
        const { factors } = answer(await secondFactors.list(sub));
        return { factors, policy: secondFactors.policy, passkeysAddedHere: secondFactors.passkeysAddedHere };
      },
    });

    app.route({
      ...endpointRoute(secondFactorEndpoints.enrolAuthenticatorApp),
      ...common,
      handler: async (request) => {
        const { sub } = borrowerClaimsOf(request);
        const { factorId, sharedSecret, accountName } = answer(
          await secondFactors.enrolAuthenticatorApp(sub, recentSignIn(request, 'add app')),
        );
        request.log.info({ borrowerId: sub, factorId }, 'borrower started adding an app');
        return { factorId, sharedSecret, accountName };
      },
    });

    app.route({
      ...endpointRoute(secondFactorEndpoints.enrolEmail),
      ...common,
      handler: async (request) => {
        const { sub } = borrowerClaimsOf(request);
        const { factorId, sentTo } = answer(
          await secondFactors.enrolEmail(sub, recentSignIn(request, 'add email codes')),
        );
        request.log.info({ borrowerId: sub, factorId }, 'borrower started adding email codes');
        return { factorId, sentTo };
      },
    });

    app.route({
      ...endpointRoute(secondFactorEndpoints.resendCode),
      ...common,
      handler: async (request) => {
        const { sub } = borrowerClaimsOf(request);
        const factorId = factorIdOf(request.params);
        answer(await secondFactors.resendCode(sub, factorId));
        request.log.info({ borrowerId: sub, factorId }, 'borrower asked for another code');
        return { sent: true as const };
      },
    });

    app.route({
      ...endpointRoute(secondFactorEndpoints.activate),
      ...common,
      handler: async (request) => {
        const { sub } = borrowerClaimsOf(request);
        const factorId = factorIdOf(request.params);
        answer(
          await secondFactors.activate(
            sub,
            factorId,
            request.body.code,
            changeSource(request),
            recentSignIn(request, 'confirm factor'),
          ),
        );
        request.log.info({ borrowerId: sub, factorId }, 'borrower added a second factor');
        return { added: true as const };
      },
    });

    app.route({
      ...endpointRoute(passkeyEndpoints.enrol),
      ...common,
      handler: async (request) => {
        const { sub } = borrowerClaimsOf(request);
        const { enrolment } = answer(
          await secondFactors.enrolPasskey(sub, recentSignIn(request, 'add passkey')),
          PASSKEY_STEP_UP_MESSAGE,
        );
        request.log.info(
          { borrowerId: sub, factorId: enrolment.factorId },
          'borrower started adding a passkey',
        );
        return enrolment;
      },
    });

    app.route({
      ...endpointRoute(passkeyEndpoints.activate),
      ...common,
      handler: async (request) => {
        const { sub } = borrowerClaimsOf(request);
        const factorId = factorIdOf(request.params);
        const { name, ...credential } = request.body;
        answer(
          await secondFactors.activatePasskey(
            sub,
            factorId,
            name,
            credential,
            changeSource(request),
            recentSignIn(request, 'confirm passkey'),
          ),
          PASSKEY_STEP_UP_MESSAGE,
        );
        request.log.info({ borrowerId: sub, factorId }, 'borrower added a passkey');
        return { added: true as const };
      },
    });

    app.route({
      ...endpointRoute(secondFactorEndpoints.remove),
      ...common,
      handler: async (request) => {
        const { sub } = borrowerClaimsOf(request);
        const factorId = factorIdOf(request.params);
        answer(
          await secondFactors.remove(sub, factorId, request.body.currentPassword, changeSource(request)),
        );
        request.log.info({ borrowerId: sub, factorId }, 'borrower removed a second factor');
        return { removed: true as const };
      },
    });
  };
