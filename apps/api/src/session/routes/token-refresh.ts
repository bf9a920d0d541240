import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authEndpoints } from '@customer-core/contracts';
import { endpointRoute } from '../../http/endpoint-route.js';
import { accessTokenRefused } from '../token-problems.js';
import type { Sessions } from '../sessions.js';

/** A fresh access token for the current one of a session (once: see Sessions.refresh). */
export const tokenRefreshRoute =
  ({ sessions }: { sessions: Sessions }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(authEndpoints.tokenRefresh),
      handler: async (request) => {
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
    });
  };
