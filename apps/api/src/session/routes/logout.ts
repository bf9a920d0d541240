import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiPaths,
  ApiErrorSchema,
  LogoutRequestSchema,
  LogoutResponseSchema,
} from '@customer-core/contracts';
import type { AuthServices } from '../../services.js';
import { accessTokenRefused } from '../../http/token-problems.js';

/**
 * Sign-out: the token's whole session family is revoked for every instance (tokens refreshed from it
 * too), and the borrower's sessions at the bundled identity provider end, so it cannot silently sign
 * the browser back in.
 */
export const logoutRoute =
  ({ productTokens, sessions, borrowers, directory }: AuthServices): FastifyPluginAsyncZod =>
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
        // An expired or already revoked token may still sign out: the IdP sessions must end all the same.
        const verified = await productTokens.verify(request.body.access_token, { allowExpired: true });
        if (!verified.ok) throw accessTokenRefused(verified.problem);
        const { sid, sub } = verified.claims;
        await sessions.revoke(sid, sub, new Date(productTokens.sessionEnd(verified.claims) * 1000));
        const borrower = await borrowers.findById(sub);
        if (borrower?.idpSubject && borrower.idpIssuer === directory.issuer) {
          await directory.endSessions(borrower.idpSubject);
        }
        request.log.info({ borrowerId: sub }, 'borrower signed out');
        return { revoked: true };
      },
    );
  };
