import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { operatorEndpoints } from '@customer-core/contracts';
import { operatorOf } from '../../console/operator-access.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import type { SigningKeyRotation } from '../../session/signing-keys.js';

/**
 * Operators rotate the key that signs access tokens. Borrowers notice nothing: the earlier key keeps
 * verifying for a token's lifetime, unless the operator retires it at once after a leak.
 */
export const operatorSigningKeyRoutes =
  ({ rotateSigningKey }: { rotateSigningKey: SigningKeyRotation }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(operatorEndpoints.signingKeyRotations),
      handler: async (request, reply) => {
        const rotation = await rotateSigningKey(request.body.retireEarlierKeysNow);
        request.log.info({ ...rotation, operator: operatorOf(request).actor }, 'signing key rotated');
        return reply.status(201).send(rotation);
      },
    });
  };
