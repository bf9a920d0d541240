import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiPaths, PublicKeysSchema } from '@customer-core/contracts';
import type { ProductKeyRing } from '../signing-keys.js';

/** The product token's verification keys (every key still in the database, so a rotation overlaps). */
export const publicKeysRoute =
  ({ keys }: { keys: ProductKeyRing }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      apiPaths.auth.publicKeys,
      {
        schema: {
          tags: ['session'],
          summary: "The product access token's public keys (JWKS)",
          response: { 200: PublicKeysSchema },
        },
      },
      async (_request, reply) => {
        // Already JSON: Fastify sends a string as it is (the schema above still describes it).
        return reply
          .header('cache-control', 'public, max-age=300')
          .type('application/json; charset=utf-8')
          .send(keys.publicJwksJson() as never);
      },
    );
  };
