import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { operatorEndpoints } from '@customer-core/contracts';
import { endpointRoute } from '../../http/endpoint-route.js';
import { requireTrustedService } from '../../http/service-credential.js';
import type { ServiceCredential } from '../../config/service-credentials.js';
import type { BorrowerOverview } from '../../loans/borrower-overview.js';

/**
 * Operators list the borrowers, or search them by name, e-mail address or loan reference: who has
 * registered, who is invited, how many loans each has.
 */
export const operatorBorrowerRoutes =
  ({
    borrowerOverview,
    serviceCredentials,
  }: {
    borrowerOverview: BorrowerOverview;
    serviceCredentials: readonly ServiceCredential[];
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(operatorEndpoints.borrowers),
      onRequest: requireTrustedService(serviceCredentials, 'operator'),
      handler: async (request) => {
        const service = request.trustedService;
        const borrowers = await borrowerOverview(request.query.q);
        request.log.info({ service, borrowers: borrowers.length }, 'borrowers listed');
        return { borrowers };
      },
    });
  };
