import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { operatorEndpoints } from '@customer-core/contracts';
import { operatorOf } from '../../console/operator-access.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import type { SecurityActivity } from '../../activity/security-activity.js';
import type { BorrowerRepository } from '../../borrowers/borrower-repository.js';

// Operators read a borrower's security activity (a borrower on the phone asking "was that me?"): the
// same events the borrower sees, never a secret. Driven by `npm run cli -- activity`.

export const operatorActivityRoute =
  ({
    activity,
    borrowers,
  }: {
    activity: SecurityActivity;
    borrowers: BorrowerRepository;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(operatorEndpoints.activity),
      handler: async (request) => {
        const { email, ...paging } = request.query;
        const found = await borrowers.findByEmail(email);
        if (found.length === 0) throw new HttpError(404, 'not_found', 'No borrower has that email address.');
        const page = await activity.page(found, paging);
        request.log.info(
          { operator: operatorOf(request).actor, events: page.events.length },
          'activity listed',
        );
        return page;
      },
    });
  };
