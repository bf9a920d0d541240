import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { applicationEndpoints } from '@customer-core/contracts';
import { clientAddress } from '@customer-core/contracts/server';
import type { BorrowerRepository } from '../../borrowers/borrower-repository.js';
import type { Config } from '../../config/config.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import type { AccessTokenChecker } from '../../session/access-tokens.js';
import { borrowerClaimsOf, requireBorrower } from '../../session/signed-in-borrower.js';
import type { LoanApplications } from '../applications.js';

/**
 * Applying while signed in, and the borrower's applications. The name and address are the account's
 * (from the borrower record, not the request): nothing to verify, and nothing to impersonate.
 */
export const borrowerApplicationRoutes =
  ({
    applications,
    borrowers,
    checkAccessToken,
    lender,
    trustProxy,
  }: {
    applications: LoanApplications;
    borrowers: BorrowerRepository;
    checkAccessToken: AccessTokenChecker;
    lender: Config['lender'];
    trustProxy: boolean;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const common = { onRequest: requireBorrower(checkAccessToken) };
    const borrowerOf = async (id: string) => {
      const borrower = await borrowers.findById(id);
      // A token outlives nothing: its borrower is there while it is valid.
      if (!borrower) throw new HttpError(401, 'unauthorized', 'Sign in again.');
      return borrower;
    };

    app.route({
      ...endpointRoute(applicationEndpoints.submitAsBorrower),
      ...common,
      handler: async (request, reply) => {
        const borrower = await borrowerOf(borrowerClaimsOf(request).sub);
        const contactName =
          [borrower.firstName, borrower.lastName].filter(Boolean).join(' ') || borrower.email;
        const outcome = await applications.submitAsBorrower(
          { id: borrower.id, email: borrower.email, contactName },
          request.body,
          clientAddress(request, trustProxy),
        );
        if (outcome.kind === 'limited') {
          reply.header('retry-after', String(applications.limitWindowSeconds));
          throw new HttpError(
            429,
            'too_many_requests',
            `We've received several applications from you in a short time. Please try again in ${Math.ceil(applications.limitWindowSeconds / 60)} minutes, or call ${lender.name} at ${lender.supportPhone}.`,
          );
        }
        request.log.info(
          { borrowerId: borrower.id, applicationId: outcome.application.id },
          'loan application sent signed in',
        );
        return reply.status(201).send(outcome.application);
      },
    });

    app.route({
      ...endpointRoute(applicationEndpoints.borrowerApplications),
      ...common,
      handler: async (request) => {
        const borrower = await borrowerOf(borrowerClaimsOf(request).sub);
        return { applications: await applications.ofBorrower(borrower) };
      },
    });
  };
