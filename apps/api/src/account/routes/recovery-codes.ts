import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { recoveryCodeEndpoints } from '@customer-core/contracts';
import type { RecoveryCodesOutcome, RecoveryCodesService } from '../recovery-codes.js';
import { borrowerClaimsOf, requireBorrower } from '../../session/signed-in-borrower.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import { changeSourceOf } from './change-source.js';
import { refusalOf } from './second-factors.js';
import type { AccessTokenChecker } from '../../session/access-tokens.js';

// The signed-in borrower's recovery codes: how many are left, and a new set (shown once) for the
// current password. Offered with the bundled identity provider, to a borrower with a second factor.

const NOT_OFFERED = 'Recovery codes are offered once you’ve added a second sign-in step.';

/** What went through, or the refusal thrown as the route's answer. */
function answer<T extends object>(
  outcome: RecoveryCodesOutcome<T>,
): Extract<RecoveryCodesOutcome<T>, { ok: true }> {
  if (outcome.ok) return outcome;
  switch (outcome.problem) {
    case 'recovery_codes_not_offered':
      throw new HttpError(400, 'recovery_codes_not_offered', NOT_OFFERED);
    default:
      // The refusals it shares with second factors, worded alike.
      throw refusalOf(outcome.problem);
  }
}

export const accountRecoveryCodeRoutes =
  ({
    recoveryCodes,
    checkAccessToken,
    trustProxy,
  }: {
    recoveryCodes: RecoveryCodesService;
    checkAccessToken: AccessTokenChecker;
    trustProxy: boolean;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const common = { onRequest: requireBorrower(checkAccessToken) };
    app.addHook('onSend', async (_request, reply) => void reply.header('cache-control', 'no-store'));

    app.route({
      ...endpointRoute(recoveryCodeEndpoints.status),
      ...common,
      handler: async (request) => answer(await recoveryCodes.status(borrowerClaimsOf(request).sub)).status,
    });

    app.route({
      ...endpointRoute(recoveryCodeEndpoints.generate),
      ...common,
      handler: async (request) => {
        const { sub } = borrowerClaimsOf(request);
        const { codes } = answer(
          await recoveryCodes.generate(
            sub,
            request.body.currentPassword,
            changeSourceOf(request, trustProxy),
          ),
        );
        request.log.info({ borrowerId: sub }, 'borrower made new recovery codes');
        return { codes };
      },
    });
  };
