import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { operatorEndpoints } from '@customer-core/contracts';
import { endpointRoute } from '../../http/endpoint-route.js';
import { requireTrustedService } from '../../http/service-credential.js';
import { HttpError } from '../../http/http-error.js';
import type { SecurityActivity } from '../../activity/security-activity.js';
import type { BorrowerRepository } from '../../borrowers/borrower-repository.js';
import type { ServiceCredential } from '../../config/service-credentials.js';

// Operators read a borrower's security activity (a borrower on the phone asking "was that me?"): the
// same events the borrower sees, never a secret. Driven by `npm run cli -- activity`.

export const operatorActivityRoute =
  ({
    activity,
    borrowers,
    serviceCredentials,
  }: {
    activity: SecurityActivity;
    borrowers: BorrowerRepository;
    serviceCredentials: readonly ServiceCredential[];
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(operatorEndpoints.activity),
      onRequest: requireTrustedService(serviceCredentials, 'operator'),
      handler: async (request) => {
        const { email, ...paging } = request.query;
        const found = await borrowers.findByEmail(email);
        if (found.length === 0) throw new HttpError(404, 'not_found', 'No borrower has that email address.');
        const page = await activity.page(found, paging);
        request.log.info({ service: request.trustedService, events: page.events.length }, 'activity listed');
        return page;
      },
    });
  };
