import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authEndpoints } from '@customer-core/contracts';
import { endpointRoute } from '../../http/endpoint-route.js';
import { borrowerClaimsOf, requireBorrower } from '../signed-in-borrower.js';
import { HttpError } from '../../http/http-error.js';
import type { Borrower, BorrowerRepository } from '../../borrowers/borrower-repository.js';
import type { AccessTokenChecker } from '../access-tokens.js';
import { DirectoryUnavailableError, type Directory } from '../../identity/directory.js';

/** The signed-in borrower's profile. */
export const profileRoute =
  ({
    checkAccessToken,
    borrowers,
    directory,
  }: {
    checkAccessToken: AccessTokenChecker;
    borrowers: BorrowerRepository;
    directory: Directory;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    /**
     * The language on the borrower's directory profile; null for an identity of another provider, or
     * while the directory does not answer (the profile's other fields are the portal's own).
     */
    async function localeOf(borrower: Borrower) {
      if (!borrower.idpSubject || borrower.idpIssuer !== directory.issuer) return null;
      try {
        return (await directory.findById(borrower.idpSubject))?.locale ?? null;
      } catch (error) {
        if (error instanceof DirectoryUnavailableError) return null;
        throw error;
      }
    }

    app.route({
      ...endpointRoute(authEndpoints.profile),
      onRequest: requireBorrower(checkAccessToken),
      handler: async (request) => {
        const borrower = await borrowers.findById(borrowerClaimsOf(request).sub);
        if (!borrower) throw new HttpError(404, 'not_found', 'This borrower no longer exists.');
        const { id, email, firstName, lastName, externalIds } = borrower;
        return { id, email, firstName, lastName, externalIds, locale: await localeOf(borrower) };
      },
    });
  };
