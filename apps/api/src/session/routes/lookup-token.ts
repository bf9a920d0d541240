import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AccessTokenResponseSchema,
  apiPaths,
  ApiErrorSchema,
  LookupTokenExchangeRequestSchema,
  MintLookupTokenRequestSchema,
  MintLookupTokenResponseSchema,
} from '@customer-core/contracts';
import { HttpError } from '../../http/http-error.js';
import { requireTrustedService } from '../../http/service-credential.js';
import { clientAddress } from '@customer-core/idp';
import type { AuthServices } from '../../services.js';

/**
 * Lookup tokens: a trusted system (service credential) mints a one-time token for a borrower, and
 * whoever holds it exchanges it once for an access token in a new session.
 */
export const lookupTokenRoutes =
  ({
    lookupTokens,
    borrowers,
    accountSessions,
    serviceCredentials,
    trustProxy,
    deviceOf,
  }: AuthServices): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      apiPaths.auth.mintLookupToken,
      {
        onRequest: requireTrustedService(serviceCredentials, 'lookup-tokens'),
        schema: {
          tags: ['trusted systems'],
          summary: 'Mint a one-time lookup token for a borrower (service credential)',
          security: [{ bearer: [] }],
          body: MintLookupTokenRequestSchema,
          response: {
            200: MintLookupTokenResponseSchema,
            400: ApiErrorSchema,
            401: ApiErrorSchema,
            403: ApiErrorSchema,
            404: ApiErrorSchema,
          },
        },
      },
      async (request) => {
        const service = request.trustedService;
        const borrower = await borrowers.findById(request.body.borrowerId);
        if (!borrower) throw new HttpError(404, 'not_found', 'No borrower has that id.');
        const { token, expiresAt } = await lookupTokens.mint(borrower.id, service);
        request.log.info({ borrowerId: borrower.id, service }, 'lookup token minted');
        return { token, expiresAt: expiresAt.toISOString() };
      },
    );

    app.post(
      apiPaths.auth.lookupTokenExchange,
      {
        schema: {
          tags: ['trusted systems'],
          summary: 'Exchange a one-time lookup token for an access token',
          body: LookupTokenExchangeRequestSchema,
          response: { 200: AccessTokenResponseSchema, 400: ApiErrorSchema, 401: ApiErrorSchema },
        },
      },
      async (request, reply) => {
        const borrowerId = await lookupTokens.consume(request.body.token);
        const borrower = borrowerId ? await borrowers.findById(borrowerId) : undefined;
        if (!borrower)
          throw new HttpError(401, 'invalid_token', 'The lookup token is invalid, expired or already used.');
        const token = await accountSessions.begin(borrower, {
          method: 'lookup_token',
          userAgent: request.headers['user-agent'],
          clientAddress: clientAddress(request, trustProxy),
          deviceId: deviceOf(request, reply),
        });
        request.log.info({ borrowerId: borrower.id }, 'lookup token exchanged');
        return { access_token: token };
      },
    );
  };
