import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { operatorEndpoints } from '@customer-core/contracts';
import { operatorOf } from '../../console/operator-access.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import type { SecretsResealing } from '../../session/secrets-key-rotation.js';

/** Operators seal every secret kept in the database with the first key of SECRETS_KEYS. */
export const operatorSecretsKeyRoutes =
  ({ resealSecrets }: { resealSecrets: SecretsResealing }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(operatorEndpoints.secretsKeyRotations),
      handler: async (request, reply) => {
        const rotation = await resealSecrets();
        request.log.info(
          { ...rotation, operator: operatorOf(request).actor },
          'secrets sealed with the active key',
        );
        return reply.status(201).send(rotation);
      },
    });
  };
