import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_ERROR_CODES, authEndpoints, LINK_NEEDS_PASSWORD_MESSAGE } from '@customer-core/contracts';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import type { SignInClientOf } from '../../http/sign-in-client.js';
import type { EmailLinks } from '../email-links.js';
import { invalidLink } from '../link-problems.js';

/**
 * The page of a sign-in link signs the borrower in (the link works once): a product access token in a
 * new session, and a one-time session token with which the page completes the identity provider's
 * sign-in (a prompt=none authorize, as after /api/v1/authn), so both agree who is signed in. A hosted
 * Okta org mints no session token without a password: the portal's session then stands alone.
 */
export const magicLinkLoginRoute =
  ({
    emailLinks,
    signInClientOf,
  }: {
    emailLinks: EmailLinks;
    signInClientOf: SignInClientOf;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(authEndpoints.magicLinkLogin),
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const signedIn = await emailLinks.signIn(request.body.token, signInClientOf(request, reply));
        if (!signedIn) throw invalidLink('magic_link');
        if (signedIn.kind === 'factor_unavailable') {
          request.log.info('sign-in link refused: the second factor is asked only after a password');
          throw new HttpError(409, API_ERROR_CODES.linkNeedsPassword, LINK_NEEDS_PASSWORD_MESSAGE);
        }
        if (signedIn.kind === 'factor') {
          request.log.info('sign-in link used: the second factor comes next');
          return { stateToken: signedIn.stateToken, returnTo: signedIn.returnTo };
        }
        request.log.info({ borrowerId: signedIn.borrowerId }, 'borrower signed in by e-mailed link');
        const { accessToken, sessionToken, returnTo } = signedIn;
        return { access_token: accessToken, sessionToken, returnTo };
      },
    });
  };
