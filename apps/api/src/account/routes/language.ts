import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ACCOUNT_ERROR_CODES, accountEndpoints } from '@customer-core/contracts';
import { borrowerClaimsOf, requireBorrower } from '../../session/signed-in-borrower.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import type { BorrowerRepository } from '../../borrowers/borrower-repository.js';
import type { Directory } from '../../identity/directory.js';
import type { AccessTokenChecker } from '../../session/access-tokens.js';

// The borrower's language, kept on their profile in the directory (Okta's `locale`, which the ID
// token's `locale` claim carries): the e-mails sent to them and their signature certificates follow it.
// A preference, not a credential: no step-up, no e-mail, and not in the security activity.

const GONE = 'This borrower no longer exists.';
const NOT_KEPT =
  'Your language can’t be saved to your account because you sign in through another provider. This device will remember it.';

export const accountLanguageRoute =
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
    app.route({
      ...endpointRoute(accountEndpoints.setLanguage),
      // Before the body is read: a caller without a token learns nothing of what it would accept.
      onRequest: requireBorrower(checkAccessToken),
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const { sub } = borrowerClaimsOf(request);
        const borrower = await borrowers.findById(sub);
        if (!borrower) throw new HttpError(404, 'not_found', GONE);
        if (!borrower.idpSubject || borrower.idpIssuer !== directory.issuer)
          throw new HttpError(409, ACCOUNT_ERROR_CODES.languageNotKept, NOT_KEPT);
        const { locale } = request.body;
        if (!(await directory.setLocale(borrower.idpSubject, locale)))
          throw new HttpError(404, 'not_found', GONE);
        request.log.info({ borrowerId: sub, locale }, 'language set');
        return { locale };
      },
    });
  };
