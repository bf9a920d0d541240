import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_ERROR_CODES, consoleEndpoints, operatorEndpoints } from '@customer-core/contracts';
import type { BorrowerRepository } from '../../borrowers/borrower-repository.js';
import { HttpError } from '../../http/http-error.js';
import { operatorOf } from '../../console/operator-access.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import type { MailService } from '../../mail/index.js';
import type { Invitations } from '../../joining/invitations.js';

/**
 * An operator invites a borrower to register (service credential): the invitation and the e-mail with
 * its link are written together; inviting again voids the earlier link. An address that already has
 * an account is refused.
 */
export const operatorInvitationRoutes =
  ({
    invitations,
    borrowers,
    mail,
  }: {
    invitations: Invitations;
    borrowers: Pick<BorrowerRepository, 'findByEmail'>;
    mail: MailService;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(operatorEndpoints.invitations),
      handler: async (request, reply) => {
        const operator = operatorOf(request).actor;
        const outcome = await invitations.invite(request.body, operator);
        if (outcome.kind === 'already_registered') {
          throw new HttpError(
            409,
            API_ERROR_CODES.alreadyRegistered,
            `${request.body.email} already has an account: the borrower can sign in, or reset their password from the sign-in page.`,
          );
        }
        request.log.info({ borrowerId: outcome.borrowerId, operator }, 'borrower invited');
        reply.raw.once('close', () => mail.nudge());
        return reply.status(201).send({
          borrowerId: outcome.borrowerId,
          expiresAt: outcome.expiresAt.toISOString(),
        });
      },
    });

    // Support sends the invitation again (lost, expired): the same invitation, a new link.
    app.route({
      ...endpointRoute(consoleEndpoints.resendInvitation),
      handler: async (request, reply) => {
        const [borrower] = await borrowers.findByEmail(request.body.email);
        if (!borrower) throw new HttpError(404, 'not_found', 'No borrower has that email address.');
        const { firstName, lastName } = borrower;
        // A borrower made for a loan alone has no names yet: a loan officer invites them with theirs.
        if (!firstName || !lastName)
          throw new HttpError(
            404,
            'not_found',
            'This borrower has no invitation yet: invite them with their name.',
          );
        const operator = operatorOf(request).actor;
        const outcome = await invitations.invite({ email: borrower.email, firstName, lastName }, operator);
        if (outcome.kind === 'already_registered')
          throw new HttpError(
            409,
            API_ERROR_CODES.alreadyRegistered,
            `${borrower.email} already has an account.`,
          );
        request.log.info({ borrowerId: outcome.borrowerId, operator }, 'invitation sent again');
        reply.raw.once('close', () => mail.nudge());
        return { email: borrower.email, expiresAt: outcome.expiresAt.toISOString() };
      },
    });
  };
