import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiPaths,
  ApiErrorSchema,
  LogoutRequestSchema,
  LogoutResponseSchema,
} from '@customer-core/contracts';
import type { AuthServices } from '../../services.js';
import { accessTokenRefused } from './token-problems.js';

/**
 * Sign-out: the access token is revoked for every instance, and the borrower's sessions at the
 * bundled identity provider end, so the IdP cannot silently sign the browser back in.
 */
export const logoutRoute =
  ({ productTokens, revocations, borrowers, identityProvider }: AuthServices): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      apiPaths.auth.logout,
      {
        schema: {
          body: LogoutRequestSchema,
          response: { 200: LogoutResponseSchema, 400: ApiErrorSchema, 401: ApiErrorSchema },
        },
      },
      async (request) => {
        // An expired token may still be signed out: the borrower's IdP sessions must end all the same.
        const verified = await productTokens.verify(request.body.access_token, { allowExpired: true });
        if (!verified.ok) throw accessTokenRefused(verified.problem);
        const { jti, sub, exp } = verified.claims;
        await revocations.revoke(jti, sub, new Date(exp * 1000));
        const borrower = await borrowers.findById(sub);
        if (borrower && identityProvider && borrower.idpIssuer === identityProvider.issuer) {
          await identityProvider.endSessions(borrower.idpSubject);
        }
        request.log.info({ borrowerId: sub }, 'borrower signed out');
        return { revoked: true };
      },
    );
  };
