import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { consoleEndpoints } from '@customer-core/contracts';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import type { FastifyRequest } from 'fastify';
import type { ConsoleSessionRepository } from '../console-session-repository.js';
import { staffMemberOf } from '../console-sign-in.js';
import { operatorOf } from '../operator-access.js';

/** The signed-in staff member, for the calls that are a console session's own (not the CLI's). */
function staffOf(request: FastifyRequest) {
  const operator = operatorOf(request);
  if (operator.kind !== 'staff')
    throw new HttpError(
      403,
      'forbidden',
      'This call is the staff console’s: it needs a staff member’s token.',
    );
  return operator;
}

/** Who is signed in to the console, and signing out of it. */
export const consoleSessionRoutes =
  ({ consoleSessions }: { consoleSessions: ConsoleSessionRepository }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(consoleEndpoints.me),
      handler: async (request) => {
        const staff = staffOf(request);
        return staffMemberOf(staff.session, staff.authTime);
      },
    });

    app.route({
      ...endpointRoute(consoleEndpoints.signOut),
      handler: async (request) => {
        const staff = staffOf(request);
        await consoleSessions.end(staff.session.id);
        request.log.info({ sessionId: staff.session.id }, 'staff signed out');
        return { signedOut: true as const };
      },
    });
  };
