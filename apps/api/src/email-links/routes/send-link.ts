import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authEndpoints, LINK_SENT_MESSAGE } from '@customer-core/contracts';
import { endpointRoute } from '../../http/endpoint-route.js';
import type { LinkPurpose } from '../../db/schema.js';
import { clientAddress } from '@customer-core/contracts/server';
import type { MailService } from '../../mail/index.js';
import type { EmailLinks } from '../email-links.js';

/**
 * Forgot password and sign-in by link: e-mail a one-time link to a borrower of the bundled identity
 * provider. Both calls answer the same whether or not the address is known (no enumeration, ASVS
 * 6.3.8): the same status, headers and body, and no timing signal (see EmailLinks.request).
 *
 * Past a rate limit (per e-mail address and per client address, counted in the database for every
 * instance) the answer is still that same 200, but nothing is sent. A 429 would reveal nothing about
 * the address either, but the contract gives both calls one answer, the borrower's screen then needs
 * no other state, and an attacker is not told when the limit bites or how far it reaches. The latest
 * link sent stays valid, since a refused request issues no token.
 */
export const sendLinkRoutes =
  ({
    emailLinks,
    mail,
    trustProxy,
  }: {
    emailLinks: EmailLinks;
    mail: MailService;
    trustProxy: boolean;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    async function send(
      purpose: LinkPurpose,
      body: { email: string; returnTo?: string | undefined },
      request: FastifyRequest,
      reply: FastifyReply,
    ) {
      const outcome = await emailLinks.request(purpose, {
        email: body.email,
        returnTo: body.returnTo,
        client: clientAddress(request, trustProxy),
      });
      // Never the address, the token or the link.
      request.log.info({ purpose, outcome }, 'e-mailed link requested');
      // Delivery starts once the answer is out, so its work cannot delay (and so mark) this answer.
      if (outcome === 'sent') reply.raw.once('close', () => mail.nudge());
      reply.header('cache-control', 'no-store');
      return { message: LINK_SENT_MESSAGE } as const;
    }

    app.route({
      ...endpointRoute(authEndpoints.passwordReset),
      handler: (request, reply) => send('password_reset', request.body, request, reply),
    });

    app.route({
      ...endpointRoute(authEndpoints.sendMagicLinkEmail),
      handler: (request, reply) => send('magic_link', request.body, request, reply),
    });
  };
