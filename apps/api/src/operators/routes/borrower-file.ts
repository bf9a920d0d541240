import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { consoleEndpoints } from '@customer-core/contracts';
import type { BorrowerFileOf } from '../../console/borrower-file.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';

/** Support's page of one borrower: state, lockout, factors, legal hold, loans. */
export const operatorBorrowerFileRoute =
  ({ borrowerFileOf }: { borrowerFileOf: BorrowerFileOf }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(consoleEndpoints.borrowerFile),
      handler: async (request) => {
        const file = await borrowerFileOf(request.params.borrowerId);
        if (!file) throw new HttpError(404, 'not_found', 'No borrower has that id.');
        return file;
      },
    });
  };
