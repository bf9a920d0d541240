import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authEndpoints } from '@customer-core/contracts';
import { endpointRoute } from '../../http/endpoint-route.js';
import type { ProductKeyRing } from '../signing-keys.js';

/** The product token's verification keys (every key still in the database, so a rotation overlaps). */
export const publicKeysRoute =
  ({ keys }: { keys: ProductKeyRing }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(authEndpoints.publicKeys),
      handler: async (_request, reply) => {
        // Already JSON: Fastify sends a string as it is (the schema above still describes it).
        return reply
          .header('cache-control', 'public, max-age=300')
          .type('application/json; charset=utf-8')
          .send(keys.publicJwksJson() as never);
      },
    });
  };
