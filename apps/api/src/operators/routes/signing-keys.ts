import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiPaths,
  ApiErrorSchema,
  SigningKeyRotationRequestSchema,
  SigningKeyRotationSchema,
} from '@customer-core/contracts';
import { requireTrustedService } from '../../http/service-credential.js';
import type { AuthServices } from '../../services.js';

/**
 * Operators rotate the key that signs access tokens. Borrowers notice nothing: the earlier key keeps
 * verifying for a token's lifetime, unless the operator retires it at once after a leak.
 */
export const operatorSigningKeyRoutes =
  ({
    rotateSigningKey,
    keys,
    serviceCredentials,
    signingKeyRetirementSeconds,
  }: AuthServices): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      apiPaths.operator.signingKeyRotations,
      {
        onRequest: requireTrustedService(serviceCredentials, 'operator'),
        schema: {
          tags: ['operators'],
          summary: 'Rotate the signing key of access tokens (service credential)',
          security: [{ bearer: [] }],
          body: SigningKeyRotationRequestSchema,
          response: {
            201: SigningKeyRotationSchema,
            400: ApiErrorSchema,
            401: ApiErrorSchema,
            403: ApiErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const rotation = await rotateSigningKey({
          retireAfterSeconds: signingKeyRetirementSeconds,
          retireEarlierNow: request.body.retireEarlierKeysNow,
        });
        await keys.reload(); // this instance signs with the new key at once; the others within a minute
        request.log.info({ ...rotation, operator: request.trustedService }, 'signing key rotated');
        return reply.status(201).send(rotation);
      },
    );
  };
