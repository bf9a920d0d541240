import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AccessTokenResponseSchema,
  apiPaths,
  ApiErrorSchema,
  TokenRefreshRequestSchema,
} from '@customer-core/contracts';
import type { AuthServices } from '../../services.js';
import { accessTokenRefused } from './token-problems.js';

/** A fresh access token for a current, unrevoked one, within its sign-in session's maximum age. */
export const tokenRefreshRoute =
  ({ checkAccessToken, productTokens, borrowers }: AuthServices): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      apiPaths.auth.tokenRefresh,
      {
        schema: {
          tags: ['session'],
          summary: 'Refresh an access token',
          body: TokenRefreshRequestSchema,
          response: { 200: AccessTokenResponseSchema, 400: ApiErrorSchema, 401: ApiErrorSchema },
        },
      },
      async (request) => {
        const checked = await checkAccessToken(request.body.token);
        if (!checked.ok) throw accessTokenRefused(checked.reason);
        const { claims } = checked;
        if (productTokens.sessionEnd(claims) * 1000 <= Date.now())
          throw accessTokenRefused('session_expired');
        const borrower = await borrowers.findById(claims.sub);
        if (!borrower) throw accessTokenRefused('revoked');
        const { token } = productTokens.issue(
          { borrowerId: borrower.id, email: borrower.email, externalIds: borrower.externalIds },
          { sid: claims.sid, authTime: claims.auth_time },
        );
        return { access_token: token };
      },
    );
  };
