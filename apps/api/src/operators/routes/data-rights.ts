import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataRightsEndpoints } from '@customer-core/contracts';
import type { BorrowerExport } from '../../data-rights/borrower-export.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import { requireTrustedService } from '../../http/service-credential.js';
import type { ServiceCredential } from '../../config/service-credentials.js';

// A borrower's data rights, for operators (`npm run cli -- export-borrower`): their copy of it.

export const operatorDataRightsRoutes =
  ({
    borrowerExport,
    serviceCredentials,
  }: {
    borrowerExport: BorrowerExport;
    serviceCredentials: readonly ServiceCredential[];
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(dataRightsEndpoints.borrowerExport),
      onRequest: requireTrustedService(serviceCredentials, 'operator'),
      handler: async (request, reply) => {
        const exported = await borrowerExport.archive(request.query.email);
        if (!exported.ok) throw new HttpError(404, 'not_found', 'No borrower has that email address.');
        request.log.info(
          { service: request.trustedService, borrowers: exported.borrowers, documents: exported.documents },
          'borrower data exported',
        );
        return reply
          .header('content-type', 'application/zip')
          .header('content-disposition', 'attachment; filename="borrower-data.zip"')
          .header('cache-control', 'no-store')
          .send(Buffer.from(exported.zip));
      },
    });
  };
