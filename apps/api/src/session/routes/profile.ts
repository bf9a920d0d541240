import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authEndpoints } from '@customer-core/contracts';
import { endpointRoute } from '../../http/endpoint-route.js';
import { borrowerClaimsOf, requireBorrower } from '../signed-in-borrower.js';
import { HttpError } from '../../http/http-error.js';
import type { BorrowerRepository } from '../../borrowers/borrower-repository.js';
import type { AccessTokenChecker } from '../access-tokens.js';

/** The signed-in borrower's profile. */
export const profileRoute =
  ({
    checkAccessToken,
    borrowers,
  }: {
    checkAccessToken: AccessTokenChecker;
    borrowers: BorrowerRepository;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(authEndpoints.profile),
      preHandler: requireBorrower(checkAccessToken),
      handler: async (request) => {
        const borrower = await borrowers.findById(borrowerClaimsOf(request).sub);
        if (!borrower) throw new HttpError(404, 'not_found', 'This borrower no longer exists.');
        const { id, email, firstName, lastName, externalIds } = borrower;
        return { id, email, firstName, lastName, externalIds };
      },
    });
  };
