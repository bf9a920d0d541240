import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { operatorEndpoints } from '@customer-core/contracts';
import { endpointRoute } from '../../http/endpoint-route.js';
import { requireTrustedService } from '../../http/service-credential.js';
import type { ServiceCredential } from '../../config/service-credentials.js';
import type { SigningKeyRotation } from '../../session/signing-keys.js';

/**
 * Operators rotate the key that signs access tokens. Borrowers notice nothing: the earlier key keeps
 * verifying for a token's lifetime, unless the operator retires it at once after a leak.
 */
export const operatorSigningKeyRoutes =
  ({
    rotateSigningKey,
    serviceCredentials,
  }: {
    rotateSigningKey: SigningKeyRotation;
    serviceCredentials: readonly ServiceCredential[];
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(operatorEndpoints.signingKeyRotations),
      onRequest: requireTrustedService(serviceCredentials, 'operator'),
      handler: async (request, reply) => {
        const rotation = await rotateSigningKey(request.body.retireEarlierKeysNow);
        request.log.info({ ...rotation, operator: request.trustedService }, 'signing key rotated');
        return reply.status(201).send(rotation);
      },
    });
  };
