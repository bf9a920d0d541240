import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ACCOUNT_ERROR_CODES, accountEndpoints, TOO_MANY_CHANGES_MESSAGE } from '@customer-core/contracts';
import { clientAddress } from '@customer-core/contracts/server';
import { borrowerClaimsOf, requireBorrower } from '../../session/signed-in-borrower.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import { isCommonPassword } from '../../passwords/common-passwords.js';
import { passwordRefused, passwordTooCommon } from '../../passwords/password-refusals.js';
import type { PasswordChange } from '../password-change.js';
import type { AccessTokenChecker } from '../../session/access-tokens.js';

// No separate "signed in recently" check: the current password, verified by the directory with the
// sign-in lockout, proves the borrower is at the keyboard now, whatever the session's age, and a
// session begun without a password (an e-mailed link) must prove it all the same.

const WRONG_PASSWORD = 'That isn’t your current password. Check it and try again.';
const NO_PASSWORD =
  'Your account doesn’t have a password with us to change. Use “Forgot password?” on the sign-in page to set one.';
const UNCHANGED = 'Your new password must be different from your current one.';

export const accountPasswordRoute =
  ({
    changePassword,
    checkAccessToken,
    trustProxy,
  }: {
    changePassword: PasswordChange;
    checkAccessToken: AccessTokenChecker;
    trustProxy: boolean;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(accountEndpoints.password),
      // Before the body is read: a caller without a token learns nothing of what it would accept.
      onRequest: requireBorrower(checkAccessToken),
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const { sub, sid } = borrowerClaimsOf(request);
        const { currentPassword, newPassword, signOutOtherSessions } = request.body;
        if (newPassword === currentPassword)
          throw new HttpError(400, ACCOUNT_ERROR_CODES.passwordUnchanged, UNCHANGED);
        if (isCommonPassword(newPassword)) throw passwordTooCommon();
        const outcome = await changePassword({
          borrowerId: sub,
          sid,
          currentPassword,
          newPassword,
          signOutOtherSessions,
          clientAddress: clientAddress(request, trustProxy),
          userAgent: request.headers['user-agent'],
        });
        switch (outcome.kind) {
          case 'no_password':
            throw new HttpError(400, ACCOUNT_ERROR_CODES.noPassword, NO_PASSWORD);
          case 'too_many_changes':
            request.log.warn({ borrowerId: sub }, 'password change refused: too many changes');
            throw new HttpError(429, ACCOUNT_ERROR_CODES.tooManyChanges, TOO_MANY_CHANGES_MESSAGE);
          case 'wrong_password':
            request.log.info({ borrowerId: sub }, 'password change refused: wrong current password');
            throw new HttpError(400, ACCOUNT_ERROR_CODES.wrongPassword, WRONG_PASSWORD);
          case 'password_refused':
            throw passwordRefused(outcome.requirements);
          case 'changed':
            request.log.info(
              { borrowerId: sub, endedSessions: outcome.endedSessions },
              'borrower changed their password',
            );
            return { passwordChanged: true as const, endedSessions: outcome.endedSessions };
        }
      },
    });
  };
