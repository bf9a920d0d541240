import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { operatorEndpoints } from '@customer-core/contracts';
import { operatorOf } from '../../console/operator-access.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import type { BorrowerOverview } from '../../loans/borrower-overview.js';

/**
 * Operators list the borrowers, or search them by name, e-mail address or loan reference: who has
 * registered, who is invited, how many loans each has.
 */
export const operatorBorrowerRoutes =
  ({ borrowerOverview }: { borrowerOverview: BorrowerOverview }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(operatorEndpoints.borrowers),
      handler: async (request) => {
        const operator = operatorOf(request).actor;
        const borrowers = await borrowerOverview(request.query.q);
        request.log.info({ operator, borrowers: borrowers.length }, 'borrowers listed');
        return { borrowers };
      },
    });
  };
