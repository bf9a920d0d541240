import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountEndpoints, SessionIdSchema } from '@customer-core/contracts';
import { borrowerClaimsOf, requireBorrower } from '../../session/signed-in-borrower.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import type { AccessTokenChecker } from '../../session/access-tokens.js';
import type { Sessions } from '../../session/sessions.js';

// The signed-in borrower's sign-in sessions: the list, ending another one, ending all the others.
// Another borrower's session, an ended one and an unknown or malformed id get the same 404.

const sessionNotFound = () => new HttpError(404, 'not_found', 'No active session of yours has that id.');

export const accountSessionRoutes =
  ({
    sessions,
    checkAccessToken,
  }: {
    sessions: Sessions;
    checkAccessToken: AccessTokenChecker;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const common = { onRequest: requireBorrower(checkAccessToken) };

    app.route({
      ...endpointRoute(accountEndpoints.sessions),
      ...common,
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const { sub, sid } = borrowerClaimsOf(request);
        return { sessions: await sessions.list(sub, sid) };
      },
    });

    app.route({
      ...endpointRoute(accountEndpoints.endSession),
      ...common,
      handler: async (request) => {
        const { sub, sid } = borrowerClaimsOf(request);
        const { sessionId } = request.params;
        // Any text reaches here: a malformed id names no session, so it gets the unknown id's 404.
        if (!SessionIdSchema.safeParse(sessionId).success) throw sessionNotFound();
        if (sessionId === sid) {
          throw new HttpError(400, 'current_session', 'This is the session you are using. Sign out instead.');
        }
        if (!(await sessions.end(sub, sessionId, 'borrower'))) throw sessionNotFound();
        request.log.info({ borrowerId: sub }, 'borrower ended another session');
        return { ended: 1 };
      },
    });

    app.route({
      ...endpointRoute(accountEndpoints.endOtherSessions),
      ...common,
      handler: async (request) => {
        const { sub, sid } = borrowerClaimsOf(request);
        const ended = await sessions.endOtherSessions(sub, sid, 'borrower');
        request.log.info({ borrowerId: sub, ended }, 'borrower ended their other sessions');
        return { ended };
      },
    });
  };
