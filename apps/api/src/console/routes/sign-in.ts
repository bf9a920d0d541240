import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CONSOLE_ERROR_CODES, consoleEndpoints } from '@customer-core/contracts';
import { clientAddress } from '@customer-core/contracts/server';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import { idTokenRefused, idTokenSpent } from '../../session/token-problems.js';
import type { ConsoleSignInService } from '../console-sign-in.js';

/** The console's sign-in: a staff member's ID token (after a second factor) for a console token. */
export const consoleSignInRoute =
  ({
    consoleSignIn,
    trustProxy,
  }: {
    consoleSignIn: ConsoleSignInService;
    trustProxy: boolean;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(consoleEndpoints.signIn),
      handler: async (request) => {
        const outcome = await consoleSignIn(request.body.idToken, clientAddress(request, trustProxy));
        switch (outcome.kind) {
          case 'refused':
            request.log.info({ problem: outcome.problem }, 'console ID token refused');
            throw idTokenRefused(outcome.problem);
          case 'spent':
            request.log.info({ problem: outcome.why }, 'console ID token refused');
            throw idTokenSpent(outcome.why);
          case 'not_staff':
            // A refused sign-in is in the audit trail too: who tried to open the console.
            request.auditCaller = { actor: `user:${outcome.email}`, role: 'none' };
            request.log.warn('console sign-in refused: not staff');
            throw new HttpError(403, CONSOLE_ERROR_CODES.notStaff, 'This account is not a staff account.');
          case 'no_second_factor':
            request.auditCaller = { actor: `staff:${outcome.email}`, role: outcome.role };
            request.log.warn('console sign-in refused: no second factor');
            throw new HttpError(
              403,
              CONSOLE_ERROR_CODES.secondFactorRequired,
              'Staff sign in with a second factor. Sign in again and confirm it’s you with yours.',
            );
          case 'signed_in':
            request.auditCaller = { actor: `staff:${outcome.staff.email}`, role: outcome.staff.role };
            request.log.info({ role: outcome.staff.role, sessionId: outcome.session.id }, 'staff signed in');
            return { accessToken: outcome.accessToken, staff: outcome.staff };
        }
      },
    });
  };
