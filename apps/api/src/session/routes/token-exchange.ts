import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authEndpoints } from '@customer-core/contracts';
import { endpointRoute } from '../../http/endpoint-route.js';
import type { SignInClientOf } from '../../http/sign-in-client.js';
import { HttpError } from '../../http/http-error.js';
import { idTokenRefused, idTokenSpent } from '../token-problems.js';
import type { SignIn } from '../sign-in.js';

/** Sign-in step 4 (spec section 4): the identity provider's ID token becomes a product access token. */
export const tokenExchangeRoute =
  ({ signIn, signInClientOf }: { signIn: SignIn; signInClientOf: SignInClientOf }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(authEndpoints.tokenExchange),
      handler: async (request, reply) => {
        const outcome = await signIn.withIdToken(request.body.token, signInClientOf(request, reply));
        switch (outcome.kind) {
          case 'refused':
            request.log.info({ problem: outcome.problem }, 'ID token refused');
            throw idTokenRefused(outcome.problem);
          case 'staff':
            request.log.warn('a staff identity tried to sign in as a borrower');
            throw new HttpError(403, 'forbidden', 'Staff accounts sign in to the staff console.');
          case 'spent':
            request.log.info({ problem: outcome.why, issuer: outcome.issuer }, 'ID token refused');
            throw idTokenSpent(outcome.why);
          case 'signed_in':
            request.log.info({ borrowerId: outcome.borrowerId }, 'borrower signed in');
            return { access_token: outcome.accessToken };
        }
      },
    });
  };
