import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authEndpoints } from '@customer-core/contracts';
import { endpointRoute } from '../../http/endpoint-route.js';
import { accessTokenRefused } from '../token-problems.js';
import type { Sessions } from '../sessions.js';

/** Sign-out: the token's session family ends, and the borrower's identity-provider sessions (Sessions.signOut). */
export const logoutRoute =
  ({ sessions }: { sessions: Sessions }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(authEndpoints.logout),
      handler: async (request) => {
        const signedOut = await sessions.signOut(request.body.access_token);
        if (!signedOut.ok) throw accessTokenRefused(signedOut.problem);
        request.log.info({ borrowerId: signedOut.borrowerId }, 'borrower signed out');
        return { revoked: true };
      },
    });
  };
