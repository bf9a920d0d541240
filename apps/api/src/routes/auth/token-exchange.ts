import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AccessTokenResponseSchema,
  apiPaths,
  ApiErrorSchema,
  TokenExchangeRequestSchema,
} from '@customer-core/contracts';
import type { AuthServices } from '../../services.js';
import { idTokenRefused } from './token-problems.js';

/** Sign-in step 4 (spec section 4): the identity provider's ID token becomes a product access token. */
export const tokenExchangeRoute =
  ({ idTokens, borrowers, productTokens }: AuthServices): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      apiPaths.auth.tokenExchange,
      {
        schema: {
          body: TokenExchangeRequestSchema,
          response: { 200: AccessTokenResponseSchema, 400: ApiErrorSchema, 401: ApiErrorSchema },
        },
      },
      async (request) => {
        const result = await idTokens.verify(request.body.token);
        if (!result.ok) {
          request.log.info({ problem: result.problem }, 'ID token refused');
          throw idTokenRefused(result.problem);
        }
        const borrower = await borrowers.upsertByIdentity(result.identity);
        const { token } = productTokens.issue(
          { borrowerId: borrower.id, email: borrower.email, externalIds: borrower.externalIds },
          productTokens.newSession(),
        );
        request.log.info({ borrowerId: borrower.id }, 'borrower signed in');
        return { access_token: token };
      },
    );
  };
