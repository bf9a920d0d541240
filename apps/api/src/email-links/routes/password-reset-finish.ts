import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authEndpoints } from '@customer-core/contracts';
import { borrowerCaller } from '../../audit/recorded-calls.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import { passwordRefused, passwordTooCommon } from '../../passwords/password-refusals.js';
import type { EmailLinks } from '../email-links.js';
import { invalidLink } from '../link-problems.js';

/**
 * The page of a password-reset link sets the new password. The password meets the spec's rules (the
 * body schema) and is not a common one; the link works once. A new password ends every sign-in: the
 * borrower's product sessions, the identity provider's sessions, and any other link still unused.
 */
export const passwordResetFinishRoute =
  ({ emailLinks }: { emailLinks: EmailLinks }): FastifyPluginAsyncZod =>
  async (app) => {
    // The link's page asks first, as the invitation page does, so a dead link says so before the
    // borrower types a new password. The answer is the finish call's, and the token is not spent.
    app.route({
      ...endpointRoute(authEndpoints.passwordResetCheck),
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        if (!(await emailLinks.isUsable('password_reset', request.body.token))) {
          throw invalidLink('password_reset');
        }
        return { usable: true as const };
      },
    });

    app.route({
      ...endpointRoute(authEndpoints.passwordResetFinish),
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const { token, password } = request.body;
        const reset = await emailLinks.resetPassword(token, password);
        switch (reset.kind) {
          case 'too_common':
            throw passwordTooCommon();
          case 'password_refused':
            throw passwordRefused(reset.requirements);
          case 'dead_link':
            throw invalidLink('password_reset');
          case 'reset':
            request.auditCaller = reset.borrowerId
              ? borrowerCaller(reset.borrowerId)
              : { actor: `user:${reset.idpUserId}`, role: 'borrower', target: `user:${reset.idpUserId}` };
            request.log.info(
              { idpUserId: reset.idpUserId, borrowerId: reset.borrowerId },
              'password reset by e-mailed link',
            );
            return { passwordChanged: true as const };
        }
      },
    });
  };
