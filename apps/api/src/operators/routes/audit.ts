import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditEndpoints } from '@customer-core/contracts';
import type { AuditTrail } from '../../audit/audit-trail.js';
import { endpointRoute } from '../../http/endpoint-route.js';

// The audit trail, for operators (`npm run cli -- audit`): searched and paged, and its chain checked.

export const operatorAuditRoutes =
  ({ auditTrail }: { auditTrail: AuditTrail }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(auditEndpoints.records),
      handler: async (request) => {
        const { limit, ...search } = request.query;
        // One more than asked: whether a next page exists, without a count.
        const records = await auditTrail.search({ ...search, limit: limit + 1 });
        const page = records.slice(0, limit);
        return { records: page, next: records.length > limit ? page.at(-1)!.seq : null };
      },
    });

    app.route({
      ...endpointRoute(auditEndpoints.verification),
      handler: async () => auditTrail.verify(),
    });
  };
