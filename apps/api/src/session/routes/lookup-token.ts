import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authEndpoints } from '@customer-core/contracts';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import { requireTrustedService } from '../../http/service-credential.js';
import type { ServiceCredential } from '../../config/service-credentials.js';
import type { SignInClientOf } from '../../http/sign-in-client.js';
import type { SignIn } from '../sign-in.js';

/**
 * Lookup tokens: a trusted system (service credential) mints a one-time token for a borrower, and
 * whoever holds it exchanges it once for an access token in a new session.
 */
export const lookupTokenRoutes =
  ({
    signIn,
    serviceCredentials,
    signInClientOf,
  }: {
    signIn: SignIn;
    serviceCredentials: readonly ServiceCredential[];
    signInClientOf: SignInClientOf;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(authEndpoints.mintLookupToken),
      onRequest: requireTrustedService(serviceCredentials, 'lookup-tokens'),
      handler: async (request) => {
        const service = request.trustedService;
        const { borrowerId } = request.body;
        const minted = await signIn.mintLookupToken(borrowerId, service);
        if (!minted) throw new HttpError(404, 'not_found', 'No borrower has that id.');
        const { token, expiresAt } = minted;
        request.log.info({ borrowerId, service }, 'lookup token minted');
        return { token, expiresAt: expiresAt.toISOString() };
      },
    });

    app.route({
      ...endpointRoute(authEndpoints.lookupTokenExchange),
      handler: async (request, reply) => {
        const signedIn = await signIn.withLookupToken(request.body.token, signInClientOf(request, reply));
        if (!signedIn)
          throw new HttpError(401, 'invalid_token', 'The lookup token is invalid, expired or already used.');
        request.log.info({ borrowerId: signedIn.borrowerId }, 'lookup token exchanged');
        return { access_token: signedIn.accessToken };
      },
    });
  };
