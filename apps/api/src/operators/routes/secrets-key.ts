import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { operatorEndpoints } from '@customer-core/contracts';
import { endpointRoute } from '../../http/endpoint-route.js';
import { requireTrustedService } from '../../http/service-credential.js';
import type { ServiceCredential } from '../../config/service-credentials.js';
import type { SecretsResealing } from '../../session/secrets-key-rotation.js';

/** Operators seal every secret kept in the database with the first key of SECRETS_KEYS. */
export const operatorSecretsKeyRoutes =
  ({
    resealSecrets,
    serviceCredentials,
  }: {
    resealSecrets: SecretsResealing;
    serviceCredentials: readonly ServiceCredential[];
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(operatorEndpoints.secretsKeyRotations),
      onRequest: requireTrustedService(serviceCredentials, 'operator'),
      handler: async (request, reply) => {
        const rotation = await resealSecrets();
        request.log.info(
          { ...rotation, operator: request.trustedService },
          'secrets sealed with the active key',
        );
        return reply.status(201).send(rotation);
      },
    });
  };
