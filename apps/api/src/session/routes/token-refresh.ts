import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AccessTokenResponseSchema,
  apiPaths,
  ApiErrorSchema,
  TokenRefreshRequestSchema,
} from '@customer-core/contracts';
import type { AuthServices } from '../../services.js';
import type { ProductTokenClaims } from '../product-token.js';
import { accessTokenRefused } from '../../http/token-problems.js';

/**
 * A fresh access token for the current one of an unrevoked session, within its maximum age. Refresh
 * rotates: the presented token is spent (superseded by the new one), and a spent token presented
 * again revokes its whole session family, since either it or its successor is in someone else's hands
 * (refresh-token reuse detection, OAuth 2.0 Security BCP).
 */
export const tokenRefreshRoute =
  ({ checkAccessToken, productTokens, sessions }: AuthServices): FastifyPluginAsyncZod =>
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
        const reuse = async (claims: ProductTokenClaims) => {
          await sessions.revoke(claims.sid, claims.sub, new Date(productTokens.sessionEnd(claims) * 1000));
          request.log.warn(
            { borrowerId: claims.sub, generation: claims.gen },
            'spent access token presented for refresh: session revoked',
          );
          return accessTokenRefused('revoked');
        };

        const checked = await checkAccessToken(request.body.token);
        if (!checked.ok) {
          // This instance already knows the token was refreshed before.
          if (checked.reason === 'superseded' && checked.claims) throw await reuse(checked.claims);
          throw accessTokenRefused(checked.reason);
        }
        const { claims } = checked;
        if (productTokens.sessionEnd(claims) * 1000 <= Date.now())
          throw accessTokenRefused('session_expired');
        const rotation = await sessions.rotate(claims);
        // Refreshed before, possibly on another instance that has not told this one yet.
        if (!rotation.ok) throw await reuse(claims);
        const { token } = productTokens.issue(
          { borrowerId: claims.sub, email: rotation.email, externalIds: rotation.externalIds },
          {
            sid: claims.sid,
            authTime: claims.auth_time,
            generation: rotation.generation,
            ...(claims.amr ? { amr: claims.amr } : {}),
          },
        );
        return { access_token: token };
      },
    );
  };
