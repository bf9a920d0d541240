import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { operatorEndpoints } from '@customer-core/contracts';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import { requireTrustedService } from '../../http/service-credential.js';
import type { ServiceCredential } from '../../config/service-credentials.js';
import type { Directory } from '../../identity/directory.js';

// What support does for a borrower on the phone, once it knows the caller is them (`npm run cli --
// unlock`): their sign-in lockouts lifted. The call, with its reason, is in the audit trail.

export const operatorSupportRoutes =
  ({
    directory,
    serviceCredentials,
  }: {
    directory: Pick<Directory, 'findByLogin' | 'unlock'>;
    serviceCredentials: readonly ServiceCredential[];
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(operatorEndpoints.unlockBorrower),
      onRequest: requireTrustedService(serviceCredentials, 'operator'),
      handler: async (request) => {
        const { email } = request.body;
        const user = await directory.findByLogin(email);
        if (!user) throw new HttpError(404, 'not_found', 'No sign-in account has that email address.');
        await directory.unlock(user.id);
        request.log.info(
          { service: request.trustedService, userId: user.id },
          'borrower unlocked by support',
        );
        return { email, unlocked: true as const };
      },
    });
  };
