import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiPaths, ApiErrorSchema, BorrowerListSchema } from '@customer-core/contracts';
import { requireTrustedService } from '../../http/service-credential.js';
import type { AuthServices } from '../../services.js';

/** Operators list the borrowers: who has registered, who is invited, how many loans each has. */
export const operatorBorrowerRoutes =
  ({ loans, serviceCredentials }: AuthServices): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      apiPaths.operator.borrowers,
      {
        onRequest: requireTrustedService(serviceCredentials, 'operator'),
        schema: {
          tags: ['operators'],
          summary: 'Every borrower, with their registration state and number of loans',
          security: [{ bearer: [] }],
          response: { 200: BorrowerListSchema, 401: ApiErrorSchema, 403: ApiErrorSchema },
        },
      },
      async (request) => {
        const service = request.trustedService;
        const borrowers = await loans.overview();
        request.log.info({ service, borrowers: borrowers.length }, 'borrowers listed');
        return { borrowers };
      },
    );
  };
