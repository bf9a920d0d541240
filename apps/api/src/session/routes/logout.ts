import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiPaths,
  ApiErrorSchema,
  LogoutRequestSchema,
  LogoutResponseSchema,
} from '@customer-core/contracts';
import { accessTokenRefused } from '../../http/token-problems.js';
import type { Sessions } from '../sessions.js';

/** Sign-out: the token's session family ends, and the borrower's identity-provider sessions (Sessions.signOut). */
export const logoutRoute =
  ({ sessions }: { sessions: Sessions }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      apiPaths.auth.logout,
      {
        schema: {
          tags: ['session'],
          summary: 'Sign out: revoke the session of this access token',
          body: LogoutRequestSchema,
          response: { 200: LogoutResponseSchema, 400: ApiErrorSchema, 401: ApiErrorSchema },
        },
      },
      async (request) => {
        const signedOut = await sessions.signOut(request.body.access_token);
        if (!signedOut.ok) throw accessTokenRefused(signedOut.problem);
        request.log.info({ borrowerId: signedOut.borrowerId }, 'borrower signed out');
        return { revoked: true };
      },
    );
  };
