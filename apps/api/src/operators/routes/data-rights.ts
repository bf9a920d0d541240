import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataRightsEndpoints } from '@customer-core/contracts';
import type { BorrowerErasure } from '../../data-rights/borrower-erasure.js';
import type { BorrowerExport } from '../../data-rights/borrower-export.js';
import { operatorOf } from '../../console/operator-access.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';

// A borrower's data rights, for operators (`npm run cli -- export-borrower`, `erase-borrower`,
// `legal-hold`): their copy of it, and its erasure where the law allows.

const noBorrower = () => new HttpError(404, 'not_found', 'No borrower has that email address.');

export const operatorDataRightsRoutes =
  ({
    borrowerExport,
    borrowerErasure,
  }: {
    borrowerExport: BorrowerExport;
    borrowerErasure: BorrowerErasure;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(dataRightsEndpoints.borrowerExport),
      handler: async (request, reply) => {
        const exported = await borrowerExport.archive(request.query.email);
        if (!exported.ok) throw noBorrower();
        request.log.info(
          {
            operator: operatorOf(request).actor,
            borrowers: exported.borrowers,
            documents: exported.documents,
          },
          'borrower data exported',
        );
        return reply
          .header('content-type', 'application/zip')
          .header('content-disposition', 'attachment; filename="borrower-data.zip"')
          .header('cache-control', 'no-store')
          .send(Buffer.from(exported.zip));
      },
    });

    app.route({
      ...endpointRoute(dataRightsEndpoints.eraseBorrower),
      handler: async (request) => {
        const erased = await borrowerErasure.erase(request.body.email);
        if (!erased.ok) {
          if (erased.problem === 'not_found') throw noBorrower();
          const since = erased.since ? ` since ${erased.since.toISOString().slice(0, 10)}` : '';
          throw new HttpError(
            409,
            'legal_hold',
            `A legal hold keeps this borrower's data${since}: ${erased.reason}.`,
          );
        }
        request.log.info(
          { operator: operatorOf(request).actor, kept: erased.kept.length },
          'borrower data erased',
        );
        return { erased: erased.erased, kept: erased.kept };
      },
    });

    app.route({
      ...endpointRoute(dataRightsEndpoints.legalHold),
      handler: async (request) => {
        const { email } = request.body;
        const held = await borrowerErasure.setLegalHold(
          email,
          request.body.hold ? request.body.reason : null,
        );
        if (!held) throw noBorrower();
        return { email, hold: request.body.hold };
      },
    });
  };
