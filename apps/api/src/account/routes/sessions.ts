import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountApiPaths,
  AccountSessionListSchema,
  ApiErrorSchema,
  EndedSessionsSchema,
  SessionIdSchema,
} from '@customer-core/contracts';
import { borrowerClaimsOf, requireBorrower } from '../../http/bearer.js';
import { HttpError } from '../../http/http-error.js';
import type { AccessTokenChecker } from '../../session/access-tokens.js';
import type { Sessions } from '../../session/sessions.js';

// The signed-in borrower's sign-in sessions: the list, ending another one, ending all the others.
// Another borrower's session, an ended one and an unknown or malformed id get the same 404.

const sessionNotFound = () => new HttpError(404, 'not_found', 'No active session of yours has that id.');

// Any text is taken: a malformed id names no session, so it gets the unknown id's 404.
const SessionPathSchema = z.object({ sessionId: z.string() });

export const accountSessionRoutes =
  ({
    sessions,
    checkAccessToken,
  }: {
    sessions: Sessions;
    checkAccessToken: AccessTokenChecker;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const common = { preHandler: requireBorrower(checkAccessToken) };
    const described = { tags: ['account'], security: [{ bearer: [] }] };
    const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 404: ApiErrorSchema };

    app.get(
      accountApiPaths.sessions,
      {
        ...common,
        schema: {
          ...described,
          summary: "The borrower's active sign-in sessions, newest first, the caller's marked",
          response: { 200: AccountSessionListSchema, ...errors },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const { sub, sid } = borrowerClaimsOf(request);
        return { sessions: await sessions.list(sub, sid) };
      },
    );

    app.post(
      accountApiPaths.endSession.path,
      {
        ...common,
        schema: {
          ...described,
          summary: 'End another of the borrower’s sessions: its tokens and its identity-provider session',
          params: SessionPathSchema,
          response: { 200: EndedSessionsSchema, ...errors },
        },
      },
      async (request) => {
        const { sub, sid } = borrowerClaimsOf(request);
        const { sessionId } = request.params;
        if (!SessionIdSchema.safeParse(sessionId).success) throw sessionNotFound();
        if (sessionId === sid) {
          throw new HttpError(400, 'current_session', 'This is the session you are using. Sign out instead.');
        }
        if (!(await sessions.end(sub, sessionId, 'borrower'))) throw sessionNotFound();
        request.log.info({ borrowerId: sub }, 'borrower ended another session');
        return { ended: 1 };
      },
    );

    app.post(
      accountApiPaths.endOtherSessions,
      {
        ...common,
        schema: {
          ...described,
          summary: 'End every session of the borrower but this one',
          response: { 200: EndedSessionsSchema, ...errors },
        },
      },
      async (request) => {
        const { sub, sid } = borrowerClaimsOf(request);
        const ended = await sessions.endAll(sub, sid, 'borrower');
        request.log.info({ borrowerId: sub, ended }, 'borrower ended their other sessions');
        return { ended };
      },
    );
  };
