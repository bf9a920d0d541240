import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ACCOUNT_ERROR_CODES, accountEndpoints } from '@customer-core/contracts';
import { borrowerClaimsOf, requireBorrower } from '../../session/signed-in-borrower.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import type { EmailChange } from '../email-change.js';
import type { StepUpGuard } from '../step-up.js';
import type { BorrowerRepository } from '../../borrowers/borrower-repository.js';
import type { Config } from '../../config/config.js';
import type { MailService } from '../../mail/index.js';
import type { AccessTokenChecker } from '../../session/access-tokens.js';
import { invalidLink } from '../../email-links/link-problems.js';
import { changeSourceOf } from './change-source.js';

// Changing the sign-in email address from the account page: asking e-mails a link to the new address
// (the same answer whether or not it is someone else's), using the link makes the change.

const STEP_UP_MESSAGE = 'To change your email address, confirm it’s you.';
const UNCHANGED = 'That’s the email address you sign in with already.';
const LIMITED = 'You’ve asked for several email changes just now. Please try again in 15 minutes.';
const TAKEN =
  'That email address now belongs to another account, so we couldn’t change yours. Ask again with another address.';

export const accountEmailRoutes =
  ({
    emailChange,
    checkAccessToken,
    stepUp,
    mail,
    borrowers,
    lender,
    trustProxy,
  }: {
    emailChange: EmailChange;
    checkAccessToken: AccessTokenChecker;
    stepUp: StepUpGuard;
    mail: MailService;
    borrowers: BorrowerRepository;
    lender: Config['lender'];
    trustProxy: boolean;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const withLender = () =>
      new HttpError(
        409,
        ACCOUNT_ERROR_CODES.emailChangeWithLender,
        `Your sign-in email address is changed with ${lender.name}. Call us at ${lender.supportPhone}.`,
      );
    const common = {
      // Before the body is read: a caller without a token learns nothing of what it would accept.
      onRequest: requireBorrower(checkAccessToken),
    };

    app.route({
      ...endpointRoute(accountEndpoints.email),
      ...common,
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const { sub } = borrowerClaimsOf(request);
        const borrower = await borrowers.findById(sub);
        return { email: borrower?.email ?? '', changeable: await emailChange.canChange(sub) };
      },
    });

    app.route({
      ...endpointRoute(accountEndpoints.changeEmail),
      ...common,
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const { sub } = borrowerClaimsOf(request);
        // A hosted org's sign-in names are the lender's: no step-up for what cannot be done here.
        if (!(await emailChange.canChange(sub))) throw withLender();
        await stepUp.require(request, STEP_UP_MESSAGE, { action: 'change email' });
        const outcome = await emailChange.request(sub, request.body.newEmail);
        // Never the address: 'in_use' is logged as such, for operators, and answered as 'sent'.
        request.log.info({ borrowerId: sub, outcome }, 'email change requested');
        switch (outcome) {
          case 'with_lender':
            throw withLender();
          case 'unchanged':
            throw new HttpError(400, ACCOUNT_ERROR_CODES.emailUnchanged, UNCHANGED);
          case 'limited':
            throw new HttpError(429, ACCOUNT_ERROR_CODES.emailChangeLimited, LIMITED);
          case 'sent':
          case 'in_use':
            reply.raw.once('close', () => mail.nudge());
            return reply.code(202).send({ linkSent: true as const });
        }
      },
    });

    app.route({
      ...endpointRoute(accountEndpoints.confirmEmail),
      ...common,
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const { sub, sid } = borrowerClaimsOf(request);
        const outcome = await emailChange.confirm(sub, request.body.token, {
          ...changeSourceOf(request, trustProxy),
          currentSid: sid,
        });
        request.log.info({ borrowerId: sub, outcome: outcome.kind }, 'email change link used');
        switch (outcome.kind) {
          case 'with_lender':
            throw withLender();
          case 'dead_link':
            throw invalidLink('email_change');
          case 'taken':
            throw new HttpError(409, ACCOUNT_ERROR_CODES.emailTaken, TAKEN);
          case 'changed':
            return { email: outcome.email };
        }
      },
    });
  };
