import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AUDIT_REASON_HEADER, operatorEndpoints } from '@customer-core/contracts';
import { clientAddress } from '@customer-core/contracts/server';
import type { SecondFactors } from '../../account/second-factors.js';
import type { BorrowerRepository } from '../../borrowers/borrower-repository.js';
import type { Sessions } from '../../session/sessions.js';
import { tellSessionsEndedByStaff, type Webhooks } from '../../webhooks/webhooks.js';
import { operatorOf } from '../../console/operator-access.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import type { Directory } from '../../identity/directory.js';

// What support does for a borrower on the phone, once it knows the caller is them (`npm run cli --
// unlock`, `reset-factors`): their sign-in lockouts lifted; their second factors removed after a lost
// phone. Each call, with its reason, is in the audit trail.

const noAccount = () => new HttpError(404, 'not_found', 'No sign-in account has that email address.');

export const operatorSupportRoutes =
  ({
    directory,
    borrowers,
    secondFactors,
    sessions,
    webhooks,
    trustProxy,
  }: {
    directory: Pick<Directory, 'findByLogin' | 'unlock'>;
    borrowers: BorrowerRepository;
    secondFactors: Pick<SecondFactors, 'resetByStaff'>;
    sessions: Pick<Sessions, 'endOtherSessions'>;
    webhooks: Pick<Webhooks, 'events'>;
    trustProxy: boolean;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(operatorEndpoints.unlockBorrower),
      handler: async (request) => {
        const { email } = request.body;
        const user = await directory.findByLogin(email);
        if (!user) throw noAccount();
        await directory.unlock(user.id);
        request.log.info(
          { operator: operatorOf(request).actor, userId: user.id },
          'borrower unlocked by support',
        );
        return { email, unlocked: true as const };
      },
    });

    app.route({
      ...endpointRoute(operatorEndpoints.resetSecondFactors),
      handler: async (request) => {
        // The header's form is checked with every operator call (audit/recorded-calls.ts); here, that there is one.
        if (!request.headers[AUDIT_REASON_HEADER])
          throw new HttpError(
            400,
            'bad_request',
            'Give the reason (the audit-reason header; the CLI’s --reason): second factors are reset only once support knows who calls.',
          );
        const { email } = request.body;
        const from = {
          userAgent: request.headers['user-agent'],
          clientAddress: clientAddress(request, trustProxy),
        };
        let factorsRemoved = 0;
        let sessionsEnded = 0;
        let found = false;
        for (const borrower of await borrowers.findByEmail(email)) {
          const reset = await secondFactors.resetByStaff(borrower.id, from);
          if (!reset.ok) continue;
          found = true;
          factorsRemoved += reset.removed;
          const ended = await sessions.endOtherSessions(borrower.id, null, 'operator');
          await tellSessionsEndedByStaff(webhooks.events, {
            borrowerId: borrower.id,
            ended,
            endedBy: operatorOf(request).actor,
          });
          sessionsEnded += ended;
        }
        if (!found) throw noAccount();
        request.log.info(
          { operator: operatorOf(request).actor, factorsRemoved, sessionsEnded },
          'second factors reset by support',
        );
        return { email, factorsRemoved, sessionsEnded };
      },
    });
  };
