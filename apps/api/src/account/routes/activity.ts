import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { activityEndpoints } from '@customer-core/contracts';
import { borrowerClaimsOf, requireBorrower } from '../../session/signed-in-borrower.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import type { SecurityActivity } from '../../activity/security-activity.js';
import type { BorrowerRepository } from '../../borrowers/borrower-repository.js';
import type { AccessTokenChecker } from '../../session/access-tokens.js';

// The signed-in borrower's own security activity, newest first, a page at a time. Only their own:
// the borrower comes from the token, never from the query.

export const accountActivityRoute =
  ({
    activity,
    borrowers,
    checkAccessToken,
  }: {
    activity: SecurityActivity;
    borrowers: BorrowerRepository;
    checkAccessToken: AccessTokenChecker;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(activityEndpoints.account),
      // Before the query is read: a caller without a token learns nothing of what it would accept.
      onRequest: requireBorrower(checkAccessToken),
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const { sub } = borrowerClaimsOf(request);
        const borrower = await borrowers.findById(sub);
        return activity.page(borrower ? [borrower] : [], request.query);
      },
    });
  };
