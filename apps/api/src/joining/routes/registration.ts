import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_ERROR_CODES, registrationEndpoints } from '@customer-core/contracts';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import type { Config } from '../../config/config.js';
import type { SignInClientOf } from '../../http/sign-in-client.js';
import { passwordRefused, passwordTooCommon } from '../../passwords/password-refusals.js';
import type { Invitations } from '../invitations.js';

const ALREADY_REGISTERED_MESSAGE =
  'This email address already has an account. Sign in instead, or reset your password if you’ve forgotten it.';

/**
 * The page of an invitation's link: who it is for, then registration with the chosen password, which
 * creates the borrower's user in the directory (the bundled identity provider or a hosted Okta org)
 * and signs them in, or has them enrol a second factor first (Invitations.register).
 */
export const registrationRoutes =
  ({
    invitations,
    lender,
    signInClientOf,
  }: {
    invitations: Invitations;
    lender: Config['lender'];
    signInClientOf: SignInClientOf;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const invalidInvitation = () =>
      new HttpError(
        400,
        API_ERROR_CODES.invalidLink,
        `This invitation link is invalid, has expired or was already used. Call ${lender.name} at ${lender.supportPhone} for a new one.`,
      );
    const alreadyRegistered = () =>
      new HttpError(409, API_ERROR_CODES.alreadyRegistered, ALREADY_REGISTERED_MESSAGE);

    app.route({
      ...endpointRoute(registrationEndpoints.invitation),
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const outcome = await invitations.lookup(request.body.token);
        if (outcome.kind === 'invalid') throw invalidInvitation();
        if (outcome.kind === 'already_registered') throw alreadyRegistered();
        return outcome.invitation;
      },
    });

    app.route({
      ...endpointRoute(registrationEndpoints.register),
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const { token, password, locale } = request.body;
        const outcome = await invitations.register(token, password, signInClientOf(request, reply), locale);
        switch (outcome.kind) {
          case 'too_common':
            throw passwordTooCommon();
          case 'password_refused':
            throw passwordRefused(outcome.requirements);
          case 'invalid':
            throw invalidInvitation();
          case 'already_registered':
            throw alreadyRegistered();
          case 'second_factor':
            request.log.info(
              { borrowerId: outcome.borrowerId },
              'borrower registered by invitation: the second factor is enrolled next',
            );
            return { stateToken: outcome.stateToken, returnTo: null };
          case 'registered':
            request.log.info({ borrowerId: outcome.borrowerId }, 'borrower registered by invitation');
            return { access_token: outcome.accessToken, sessionToken: outcome.sessionToken, returnTo: null };
        }
      },
    });
  };
