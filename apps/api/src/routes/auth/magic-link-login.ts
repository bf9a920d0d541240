import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiPaths,
  ApiErrorSchema,
  MagicLinkLoginRequestSchema,
  MagicLinkLoginResponseSchema,
} from '@customer-core/contracts';
import { clientAddress } from '@customer-core/idp';
import type { AuthServices } from '../../services.js';
import { invalidLink } from './link-problems.js';

/**
 * The page of a sign-in link signs the borrower in (the link works once): a product access token in a
 * new session, and a one-time session token with which the page completes the identity provider's
 * sign-in (a prompt=none authorize, as after /api/v1/authn), so both agree who is signed in. A hosted
 * Okta org mints no session token without a password: the portal's session then stands alone.
 */
export const magicLinkLoginRoute =
  ({ emailLinks, trustProxy, deviceOf }: AuthServices): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      apiPaths.auth.magicLinkLogin,
      {
        schema: {
          tags: ['e-mailed links'],
          summary: "Sign in with a sign-in link's token (once)",
          body: MagicLinkLoginRequestSchema,
          response: { 200: MagicLinkLoginResponseSchema, 400: ApiErrorSchema },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const signedIn = await emailLinks.signIn(request.body.token, {
          userAgent: request.headers['user-agent'],
          clientAddress: clientAddress(request, trustProxy),
          deviceId: deviceOf(request, reply),
        });
        if (!signedIn) throw invalidLink('magic_link');
        request.log.info({ borrowerId: signedIn.borrowerId }, 'borrower signed in by e-mailed link');
        const { accessToken, sessionToken, returnTo } = signedIn;
        return { access_token: accessToken, sessionToken, returnTo };
      },
    );
  };
