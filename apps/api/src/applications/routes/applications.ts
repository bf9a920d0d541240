import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_ERROR_CODES, applicationEndpoints } from '@customer-core/contracts';
import { endpointRoute } from '../../http/endpoint-route.js';
import { clientAddress } from '@customer-core/contracts/server';
import { HttpError } from '../../http/http-error.js';
import type { Config } from '../../config/config.js';
import type { MailService } from '../../mail/index.js';
import type { LoanApplications } from '../applications.js';

const INVALID_VERIFICATION_MESSAGE =
  'This verification link is invalid or has expired. Start your application again to get a new one.';

/**
 * Applying for a loan: the start of an application (stored, and a verification link e-mailed to the
 * address given), and the verification of that address with the link's token. Verification is a POST
 * the page makes; no GET verifies anything (a mail scanner opening the link verifies nothing).
 *
 * Starting is limited per e-mail address and per client address (counted in the database for every
 * instance). Unlike the sign-in links, past the limit the answer is a 429 that says so: it reveals
 * nothing about any account, and the applicant needs to know their application was not taken.
 */
export const applicationRoutes =
  ({
    applications,
    mail,
    lender,
    trustProxy,
  }: {
    applications: LoanApplications;
    mail: MailService;
    lender: Config['lender'];
    trustProxy: boolean;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const waitMinutes = Math.ceil(applications.limitWindowSeconds / 60);

    app.route({
      ...endpointRoute(applicationEndpoints.start),
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const outcome = await applications.start(request.body, clientAddress(request, trustProxy));
        if (outcome.kind === 'limited') {
          request.log.info('loan application refused: rate limit');
          reply.header('retry-after', String(applications.limitWindowSeconds));
          throw new HttpError(
            429,
            'too_many_requests',
            `We've received several applications from you in a short time. Please try again in ${waitMinutes} minutes, or call ${lender.name} at ${lender.supportPhone}.`,
          );
        }
        request.log.info({ applicationId: outcome.applicationId }, 'loan application started');
        reply.raw.once('close', () => mail.nudge());
        return reply.status(201).send({ applicationId: outcome.applicationId, email: outcome.email });
      },
    });

    app.route({
      ...endpointRoute(applicationEndpoints.verifyEmail),
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const verified = await applications.verify(request.body.token);
        if (!verified) throw new HttpError(400, API_ERROR_CODES.invalidLink, INVALID_VERIFICATION_MESSAGE);
        const { applicationId, email, businessName, alreadyVerified } = verified;
        request.log.info({ applicationId, alreadyVerified }, 'application e-mail address verified');
        return { email, businessName, alreadyVerified };
      },
    });
  };
