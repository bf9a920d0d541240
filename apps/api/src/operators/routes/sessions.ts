import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountApiPaths,
  AccountSessionListSchema,
  ApiErrorSchema,
  EndedSessionsSchema,
  OperatorEndAllSessionsRequestSchema,
  OperatorSessionsQuerySchema,
  SessionIdSchema,
} from '@customer-core/contracts';
import { requireTrustedService } from '../../http/service-credential.js';
import { HttpError } from '../../http/http-error.js';
import type { BorrowerRepository } from '../../borrowers/borrower-repository.js';
import type { ServiceCredential } from '../../config/service-credentials.js';
import type { Sessions } from '../../session/sessions.js';

// Operators see a borrower's active sign-in sessions and end one or all of them (a lost phone, a
// borrower on the phone who cannot sign in to do it). Driven by `npm run cli -- sessions`.

const noBorrower = () => new HttpError(404, 'not_found', 'No borrower has that email address.');
const noSession = () => new HttpError(404, 'not_found', 'No active session has that id.');

export const operatorSessionRoutes =
  ({
    sessions,
    borrowers,
    serviceCredentials,
  }: {
    sessions: Sessions;
    borrowers: BorrowerRepository;
    serviceCredentials: readonly ServiceCredential[];
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const common = { onRequest: requireTrustedService(serviceCredentials, 'operator') };
    const described = { tags: ['operators'], security: [{ bearer: [] }] };
    const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };

    async function borrowersWith(email: string) {
      const found = await borrowers.findByEmail(email);
      if (found.length === 0) throw noBorrower();
      return found;
    }

    app.get(
      accountApiPaths.operator.sessions,
      {
        ...common,
        schema: {
          ...described,
          summary: "A borrower's active sign-in sessions, newest first",
          querystring: OperatorSessionsQuerySchema,
          response: { 200: AccountSessionListSchema, ...errors },
        },
      },
      async (request) => {
        const found = await borrowersWith(request.query.email);
        const lists = await Promise.all(found.map((borrower) => sessions.list(borrower.id)));
        const list = lists.flat().sort((a, b) => b.createdAt.localeCompare(a.createdAt));
        request.log.info({ service: request.trustedService, sessions: list.length }, 'sessions listed');
        return { sessions: list };
      },
    );

    app.post(
      accountApiPaths.operator.endSession.path,
      {
        ...common,
        schema: {
          ...described,
          summary: 'End one sign-in session: its tokens on every instance and its identity-provider session',
          params: z.object({ sessionId: z.string() }),
          response: { 200: EndedSessionsSchema, ...errors },
        },
      },
      async (request) => {
        const { sessionId } = request.params;
        if (!SessionIdSchema.safeParse(sessionId).success) throw noSession();
        const owner = await sessions.ownerOf(sessionId);
        if (!owner || !(await sessions.end(owner, sessionId, 'operator'))) throw noSession();
        request.log.info({ service: request.trustedService, borrowerId: owner }, 'session ended by operator');
        return { ended: 1 };
      },
    );

    app.post(
      accountApiPaths.operator.endAllSessions,
      {
        ...common,
        schema: {
          ...described,
          summary: 'End every sign-in session of a borrower, and every identity-provider session of theirs',
          body: OperatorEndAllSessionsRequestSchema,
          response: { 200: EndedSessionsSchema, ...errors },
        },
      },
      async (request) => {
        let ended = 0;
        for (const borrower of await borrowersWith(request.body.email)) {
          ended += await sessions.endEverything(borrower, 'operator');
          request.log.info(
            { service: request.trustedService, borrowerId: borrower.id },
            'sessions ended by operator',
          );
        }
        return { ended };
      },
    );
  };
