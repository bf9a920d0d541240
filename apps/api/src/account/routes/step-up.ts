import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { STEP_UP_CODE_ERROR_CODES, stepUpEndpoints } from '@customer-core/contracts';
import { borrowerClaimsOf, requireBorrower } from '../../session/signed-in-borrower.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import type { SignInClientOf } from '../../http/sign-in-client.js';
import type { AccessTokenChecker } from '../../session/access-tokens.js';
import type { StepUpByEmailCode } from '../step-up-code.js';

// The ways to confirm it's them before a sensitive action, and the one by a code e-mailed to the
// sign-in address (step-up-code.ts). The dialog says these words under the code field.

const NOT_OFFERED = 'We can’t email you a code for this. Use another way to confirm it’s you.';
const TOO_MANY_CODES = 'We’ve sent several codes just now. Use the newest one, or try again in 15 minutes.';
const WRONG_CODE = 'That code didn’t work. Check your email and enter the newest code.';
const SPENT = 'That code no longer works. Send a new code and enter it.';
const TOO_MANY_TRIES =
  'That’s too many wrong codes for now. Try again in 15 minutes, or use another way to confirm it’s you.';

export const accountStepUpRoutes =
  ({
    stepUpByEmailCode,
    checkAccessToken,
    signInClientOf,
  }: {
    stepUpByEmailCode: StepUpByEmailCode;
    checkAccessToken: AccessTokenChecker;
    signInClientOf: SignInClientOf;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const common = { onRequest: requireBorrower(checkAccessToken) };
    const subjectOf = (claims: { sub: string; sid: string }) => ({
      borrowerId: claims.sub,
      sessionId: claims.sid,
    });
    const notOffered = () => new HttpError(403, STEP_UP_CODE_ERROR_CODES.notOffered, NOT_OFFERED);

    app.route({
      ...endpointRoute(stepUpEndpoints.ways),
      ...common,
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return stepUpByEmailCode.ways(borrowerClaimsOf(request).sub);
      },
    });

    app.route({
      ...endpointRoute(stepUpEndpoints.sendCode),
      ...common,
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const outcome = await stepUpByEmailCode.send(subjectOf(borrowerClaimsOf(request)));
        request.log.info({ outcome: outcome.kind }, 'step-up code asked for');
        switch (outcome.kind) {
          case 'sent':
            return reply.status(202).send({ sentTo: outcome.sentTo });
          case 'not_offered':
            throw notOffered();
          case 'too_many_codes':
            throw new HttpError(429, STEP_UP_CODE_ERROR_CODES.tooManyCodes, TOO_MANY_CODES);
        }
      },
    });

    app.route({
      ...endpointRoute(stepUpEndpoints.verifyCode),
      ...common,
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const outcome = await stepUpByEmailCode.verify(
          subjectOf(borrowerClaimsOf(request)),
          request.body.code,
          signInClientOf(request, reply),
        );
        switch (outcome.kind) {
          case 'verified':
            return outcome.answer;
          case 'not_offered':
            throw notOffered();
          case 'wrong_code':
            throw new HttpError(400, STEP_UP_CODE_ERROR_CODES.wrongCode, WRONG_CODE);
          case 'spent':
            throw new HttpError(400, STEP_UP_CODE_ERROR_CODES.codeSpent, SPENT);
          case 'too_many_tries':
            throw new HttpError(429, STEP_UP_CODE_ERROR_CODES.tooManyTries, TOO_MANY_TRIES);
        }
      },
    });
  };
