import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiPaths, ApiErrorSchema, BorrowerListSchema } from '@customer-core/contracts';
import { requireTrustedService } from '../../http/service-credential.js';
import type { ServiceCredential } from '../../config/service-credentials.js';
import type { BorrowerOverview } from '../../loans/borrower-overview.js';

/** Operators list the borrowers: who has registered, who is invited, how many loans each has. */
export const operatorBorrowerRoutes =
  ({
    borrowerOverview,
    serviceCredentials,
  }: {
    borrowerOverview: BorrowerOverview;
    serviceCredentials: readonly ServiceCredential[];
  }): FastifyPluginAsyncZod =>
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
        const borrowers = await borrowerOverview();
        request.log.info({ service, borrowers: borrowers.length }, 'borrowers listed');
        return { borrowers };
      },
    );
  };
