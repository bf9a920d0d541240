import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_ERROR_CODES, operatorEndpoints } from '@customer-core/contracts';
import { HttpError } from '../../http/http-error.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import { requireTrustedService } from '../../http/service-credential.js';
import type { ServiceCredential } from '../../config/service-credentials.js';
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
    mail,
    serviceCredentials,
  }: {
    invitations: Invitations;
    mail: MailService;
    serviceCredentials: readonly ServiceCredential[];
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(operatorEndpoints.invitations),
      onRequest: requireTrustedService(serviceCredentials, 'operator'),
      handler: async (request, reply) => {
        const operator = request.trustedService;
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
  };
