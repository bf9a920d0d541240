import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AccessTokenResponseSchema,
  apiPaths,
  ApiErrorSchema,
  TokenRefreshRequestSchema,
} from '@customer-core/contracts';
import { accessTokenRefused } from '../../http/token-problems.js';
import type { Sessions } from '../sessions.js';

/** A fresh access token for the current one of a session (once: see Sessions.refresh). */
export const tokenRefreshRoute =
  ({ sessions }: { sessions: Sessions }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      apiPaths.auth.tokenRefresh,
      {
        schema: {
          tags: ['session'],
          summary: 'Refresh an access token (once: the presented token is spent)',
          body: TokenRefreshRequestSchema,
          response: { 200: AccessTokenResponseSchema, 400: ApiErrorSchema, 401: ApiErrorSchema },
        },
      },
      async (request) => {
        const refreshed = await sessions.refresh(request.body.token);
        if (refreshed.ok) return { access_token: refreshed.token };
        if (refreshed.reused) {
          request.log.warn(
            { borrowerId: refreshed.reused.borrowerId, generation: refreshed.reused.generation },
            'spent access token presented for refresh: session revoked',
          );
        }
        throw accessTokenRefused(refreshed.reason);
      },
    );
  };
