import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authEndpoints } from '@customer-core/contracts';
import { borrowerCaller } from '../../audit/recorded-calls.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import type { UnrecognizedSignIn } from '../unrecognized-sign-in.js';
import { invalidLink } from '../../email-links/link-problems.js';

/** The page of a "This wasn't me" link, on Continue: every session ends, and a password reset begins. */
export const unrecognizedSignInRoute =
  ({ unrecognizedSignIn }: { unrecognizedSignIn: UnrecognizedSignIn }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(authEndpoints.unrecognizedSignIn),
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const reported = await unrecognizedSignIn.report(request.body.token);
        if (!reported) throw invalidLink('unrecognized_sign_in');
        request.auditCaller = borrowerCaller(reported.borrowerId);
        request.log.warn(
          { borrowerId: reported.borrowerId },
          'sign-in reported as unrecognized: every session ended',
        );
        return { resetToken: reported.resetToken };
      },
    });
  };
