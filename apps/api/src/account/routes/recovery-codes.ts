import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { recoveryCodeEndpoints } from '@customer-core/contracts';
import { RecoveryCodesNotOfferedError, type RecoveryCodesService } from '../recovery-codes.js';
import { borrowerClaimsOf, requireBorrower } from '../../session/signed-in-borrower.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import { changeSourceOf } from './change-source.js';
import { refusalOf } from './second-factors.js';
import type { AccessTokenChecker } from '../../session/access-tokens.js';

// The signed-in borrower's recovery codes: how many are left, and a new set (shown once) for the
// current password. Offered with the bundled identity provider, to a borrower with a second factor.

const NOT_OFFERED = 'Recovery codes are offered once you’ve added a second sign-in step.';

async function answering<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof RecoveryCodesNotOfferedError)
      throw new HttpError(400, 'recovery_codes_not_offered', NOT_OFFERED);
    throw refusalOf(error) ?? error;
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
      handler: async (request) => answering(() => recoveryCodes.status(borrowerClaimsOf(request).sub)),
    });

    app.route({
      ...endpointRoute(recoveryCodeEndpoints.generate),
      ...common,
      handler: async (request) => {
        const { sub } = borrowerClaimsOf(request);
        const codes = await answering(() =>
          recoveryCodes.generate(sub, request.body.currentPassword, changeSourceOf(request, trustProxy)),
        );
        request.log.info({ borrowerId: sub }, 'borrower made new recovery codes');
        return { codes };
      },
    });
  };
