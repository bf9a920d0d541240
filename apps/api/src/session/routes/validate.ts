import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiPaths,
  ApiErrorSchema,
  ValidateRequestSchema,
  ValidateResponseSchema,
} from '@customer-core/contracts';
import { accessTokenRefused } from '../../http/token-problems.js';
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
    app.post(
      apiPaths.auth.validate,
      {
        schema: {
          tags: ['session'],
          summary: 'Validate an access token',
          body: ValidateRequestSchema,
          response: { 200: ValidateResponseSchema, 400: ApiErrorSchema, 401: ApiErrorSchema },
        },
      },
      async (request) => {
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
    );
  };
