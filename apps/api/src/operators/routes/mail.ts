import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DEAD_MAIL_LISTED, operatorEndpoints, SENT_MAIL_LISTED } from '@customer-core/contracts';
import { operatorOf } from '../../console/operator-access.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import type { MailService } from '../../mail/index.js';

/**
 * Operators see the e-mail to an address with its delivery state (support: "I never got it"), and the
 * e-mail that gave up (never its text), and send it again once the cause is fixed.
 */
export const operatorMailRoutes =
  ({ mail }: { mail: Pick<MailService, 'deadLetters' | 'resendDead' | 'sentTo'> }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(operatorEndpoints.deadMail),
      handler: async () => ({
        messages: (await mail.deadLetters(DEAD_MAIL_LISTED)).map((dead) => ({
          ...dead,
          createdAt: dead.createdAt.toISOString(),
          diedAt: dead.diedAt.toISOString(),
        })),
      }),
    });
    app.route({
      ...endpointRoute(operatorEndpoints.sentMail),
      handler: async (request) => ({
        messages: (await mail.sentTo(request.query.email, SENT_MAIL_LISTED)).map((message) => ({
          ...message,
          createdAt: message.createdAt.toISOString(),
          sentAt: message.sentAt?.toISOString() ?? null,
        })),
      }),
    });
    app.route({
      ...endpointRoute(operatorEndpoints.resendDeadMail),
      handler: async (request) => {
        const resent = await mail.resendDead('all' in request.body ? 'all' : { ids: request.body.ids });
        request.log.info({ resent, operator: operatorOf(request).actor }, 'dead mail queued again');
        return { resent };
      },
    });
  };
