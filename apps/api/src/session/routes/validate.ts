import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authEndpoints } from '@customer-core/contracts';
import { endpointRoute } from '../../http/endpoint-route.js';
import { accessTokenRefused } from '../token-problems.js';
import type { AccessTokenChecker } from '../access-tokens.js';
import type { ProductTokens } from '../product-token.js';

/** Whether an access token is good now, and if not why (the refusal's `reason`). */
export const validateRoute =
  ({
    checkAccessToken,
    productTokens,
  }: {
    checkAccessToken: AccessTokenChecker;
    productTokens: ProductTokens;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(authEndpoints.validate),
      handler: async (request) => {
        const checked = await checkAccessToken(request.body.access_token);
        if (!checked.ok) throw accessTokenRefused(checked.reason);
        const { sub, email, scope, exp } = checked.claims;
        return {
          valid: true as const,
          sub,
          email,
          scope,
          exp,
          sessionExpiresAt: productTokens.sessionEnd(checked.claims),
        };
      },
    });
  };
