import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { operatorEndpoints, SessionIdSchema } from '@customer-core/contracts';
import { operatorOf } from '../../console/operator-access.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import type { BorrowerRepository } from '../../borrowers/borrower-repository.js';
import type { Sessions } from '../../session/sessions.js';
import { tellSessionsEndedByStaff, type Webhooks } from '../../webhooks/webhooks.js';

// Operators see a borrower's active sign-in sessions and end one or all of them (a lost phone, a
// borrower on the phone who cannot sign in to do it). Driven by `npm run cli -- sessions`.

const noBorrower = () => new HttpError(404, 'not_found', 'No borrower has that email address.');
const noSession = () => new HttpError(404, 'not_found', 'No active session has that id.');

export const operatorSessionRoutes =
  ({
    sessions,
    borrowers,
    webhooks,
  }: {
    sessions: Sessions;
    borrowers: BorrowerRepository;
    webhooks: Pick<Webhooks, 'events'>;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const tell = (borrowerId: string, ended: number, endedBy: string) =>
      tellSessionsEndedByStaff(webhooks.events, { borrowerId, ended, endedBy });

    async function borrowersWith(email: string) {
      const found = await borrowers.findByEmail(email);
      if (found.length === 0) throw noBorrower();
      return found;
    }

    app.route({
      ...endpointRoute(operatorEndpoints.sessions),
      handler: async (request) => {
        const found = await borrowersWith(request.query.email);
        const lists = await Promise.all(found.map((borrower) => sessions.list(borrower.id)));
        const list = lists.flat().sort((a, b) => b.createdAt.localeCompare(a.createdAt));
        request.log.info({ operator: operatorOf(request).actor, sessions: list.length }, 'sessions listed');
        return { sessions: list };
      },
    });

    app.route({
      ...endpointRoute(operatorEndpoints.endSession),
      handler: async (request) => {
        const { sessionId } = request.params;
        if (!SessionIdSchema.safeParse(sessionId).success) throw noSession();
        const owner = await sessions.ownerOf(sessionId);
        if (!owner || !(await sessions.end(owner, sessionId, 'operator'))) throw noSession();
        await tell(owner, 1, operatorOf(request).actor);
        request.log.info(
          { operator: operatorOf(request).actor, borrowerId: owner },
          'session ended by operator',
        );
        return { ended: 1 };
      },
    });

    app.route({
      ...endpointRoute(operatorEndpoints.endAllSessions),
      handler: async (request) => {
        let ended = 0;
        for (const borrower of await borrowersWith(request.body.email)) {
          const endedNow = await sessions.endOtherSessions(borrower.id, null, 'operator');
          await tell(borrower.id, endedNow, operatorOf(request).actor);
          ended += endedNow;
          request.log.info(
            { operator: operatorOf(request).actor, borrowerId: borrower.id },
            'sessions ended by operator',
          );
        }
        return { ended };
      },
    });
  };
