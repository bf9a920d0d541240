import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BankAccountIdSchema,
  LoanIdSchema,
  PAYMENT_ERROR_CODES as P,
  PaymentIdSchema,
  paymentEndpoints,
  type PaymentRefusal,
} from '@customer-core/contracts';
import { clientAddress } from '@customer-core/contracts/server';
import type { StepUpGuard } from '../../account/step-up.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import type { AccessTokenChecker } from '../../session/access-tokens.js';
import { borrowerClaimsOf, requireBorrower } from '../../session/signed-in-borrower.js';
import type { BankAccounts } from '../bank-accounts.js';
import type { LoanPaymentService } from '../loan-payments.js';

// The borrower's bank accounts and their loans' payments and autopay. Ids in paths are any text: a
// malformed one, an unknown one and another borrower's all get the same 404.

const noAccount = () => new HttpError(404, 'not_found', 'No bank account of yours has that id.');
const noLoan = () => new HttpError(404, 'not_found', 'No loan of yours has that id.');
const noPayment = () => new HttpError(404, 'not_found', 'No payment of yours has that id.');
const noLoanOrAccount = () =>
  new HttpError(404, 'not_found', 'No loan or bank account of yours has that id.');

const idOf = (
  schema: { safeParse(v: unknown): { success: boolean } },
  value: string,
  missing: () => HttpError,
) => {
  if (!schema.safeParse(value).success) throw missing();
  return value;
};

/** What each refusal says to the borrower (the portal shows it in their language). */
const REFUSALS: Record<PaymentRefusal, string> = {
  [P.accountExists]: 'You’ve added this bank account already.',
  [P.tooManyAccounts]: 'You have as many bank accounts as you can add. Remove one first.',
  [P.notVerifiable]: 'This account can’t be verified now. Call us for help.',
  [P.wrongAmounts]: 'Those aren’t the amounts we sent. Check your bank statement and try again.',
  [P.accountNotUsable]: 'This bank account can’t be used to pay. Choose a verified bank account.',
  [P.accountInUse]: 'A payment on its way or autopay uses this account. Remove it once they no longer do.',
  [P.overPayoff]: 'That’s more than your payoff amount.',
  [P.overLimit]: 'That’s more than you can pay at once online. Call us to pay more.',
  [P.overDailyLimit]: 'That’s more than you can pay in one day online. Call us to pay more.',
  [P.dateUnavailable]: 'That day can’t be chosen any more. Choose a banking day from the ones offered.',
  [P.authorizationOutdated]: 'The payment’s details changed. Review the authorization again.',
  [P.keyReused]: 'This payment was already submitted with other details. Start again.',
  [P.notCancellable]: 'This payment can’t be cancelled any more: it’s on its way to your bank.',
  [P.loanNotPayable]: 'This loan can’t take payments online.',
};
const TOO_MANY_LATELY_MESSAGE =
  'You’ve added as many bank accounts as you can for now. Call us if you need to add another.';
const LAST_TRY_MESSAGE =
  'Those aren’t the amounts we sent, and that was the last try. Call us to verify this account.';

const refused = (problem: PaymentRefusal) => new HttpError(409, problem, REFUSALS[problem]);

const STEP_UP_ADD = 'To add a bank account, confirm it’s you.';
const STEP_UP_REMOVE = 'To remove a bank account, confirm it’s you.';
const STEP_UP_REVERIFY = 'To verify this bank account again, confirm it’s you.';

export const borrowerPaymentRoutes =
  ({
    bankAccounts,
    loanPayments,
    checkAccessToken,
    stepUp,
    trustProxy,
  }: {
    bankAccounts: BankAccounts;
    loanPayments: LoanPaymentService;
    checkAccessToken: AccessTokenChecker;
    stepUp: StepUpGuard;
    trustProxy: boolean;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const common = { onRequest: requireBorrower(checkAccessToken) };
    const source = (request: FastifyRequest) => ({
      clientAddress: clientAddress(request, trustProxy),
      userAgent: request.headers['user-agent'] ?? null,
      requestId: request.id,
    });
    const changeSource = (request: FastifyRequest) => ({
      clientAddress: clientAddress(request, trustProxy),
      userAgent: request.headers['user-agent'],
    });
    const borrower = (request: FastifyRequest) => ({
      actor: `borrower:${borrowerClaimsOf(request).sub}`,
      role: 'borrower',
      clientAddress: clientAddress(request, trustProxy),
      requestId: request.id,
    });

    app.route({
      ...endpointRoute(paymentEndpoints.bankAccounts),
      ...common,
      handler: async (request) => ({ accounts: await bankAccounts.list(borrowerClaimsOf(request).sub) }),
    });

    app.route({
      ...endpointRoute(paymentEndpoints.addBankAccount),
      ...common,
      handler: async (request, reply) => {
        const borrowerId = borrowerClaimsOf(request).sub;
        await stepUp.require(request, STEP_UP_ADD, { action: 'add bank account' });
        const outcome = await bankAccounts.add(borrowerId, request.body, changeSource(request));
        if (!outcome.ok)
          throw outcome.problem === 'exists'
            ? refused(P.accountExists)
            : outcome.problem === 'too_many'
              ? refused(P.tooManyAccounts)
              : new HttpError(409, P.tooManyAccounts, TOO_MANY_LATELY_MESSAGE);
        request.log.info(
          { borrowerId, bankAccountId: outcome.account.id, last4: outcome.account.last4 },
          'bank account added',
        );
        return reply.code(201).send(outcome.account);
      },
    });

    app.route({
      ...endpointRoute(paymentEndpoints.verifyBankAccount),
      ...common,
      handler: async (request) => {
        const borrowerId = borrowerClaimsOf(request).sub;
        const accountId = idOf(BankAccountIdSchema, request.params.accountId, noAccount);
        const { firstAmountCents, secondAmountCents } = request.body;
        const outcome = await bankAccounts.verify(borrowerId, accountId, [
          firstAmountCents,
          secondAmountCents,
        ]);
        if (outcome.ok) {
          request.log.info({ borrowerId, bankAccountId: accountId }, 'bank account verified');
          return outcome.account;
        }
        if (outcome.problem === 'not_found') throw noAccount();
        if (outcome.problem === 'wrong_amounts') {
          request.log.info(
            { borrowerId, bankAccountId: accountId, triesLeft: outcome.account.triesLeft },
            'wrong micro-deposit amounts',
          );
          const left = outcome.account.triesLeft;
          throw left > 0 ? refused(P.wrongAmounts) : new HttpError(409, P.wrongAmounts, LAST_TRY_MESSAGE);
        }
        throw refused(P.notVerifiable);
      },
    });

    app.route({
      ...endpointRoute(paymentEndpoints.reverifyBankAccount),
      ...common,
      handler: async (request) => {
        const borrowerId = borrowerClaimsOf(request).sub;
        const accountId = idOf(BankAccountIdSchema, request.params.accountId, noAccount);
        await stepUp.require(request, STEP_UP_REVERIFY, { action: 'verify bank account again' });
        const outcome = await bankAccounts.reverify(borrowerId, accountId, changeSource(request));
        if (outcome === undefined) throw noAccount();
        if (outcome === 'not_verifiable') throw refused(P.notVerifiable);
        request.log.info({ borrowerId, bankAccountId: accountId }, 'bank account to be verified again');
        return outcome;
      },
    });

    app.route({
      ...endpointRoute(paymentEndpoints.removeBankAccount),
      ...common,
      handler: async (request) => {
        const borrowerId = borrowerClaimsOf(request).sub;
        const accountId = idOf(BankAccountIdSchema, request.params.accountId, noAccount);
        await stepUp.require(request, STEP_UP_REMOVE, { action: 'remove bank account' });
        const outcome = await bankAccounts.remove(borrowerId, accountId, changeSource(request));
        if (outcome === undefined) throw noAccount();
        if (outcome === 'in_use') throw refused(P.accountInUse);
        request.log.info({ borrowerId, bankAccountId: accountId }, 'bank account removed');
        return { accounts: await bankAccounts.list(borrowerId) };
      },
    });

    app.route({
      ...endpointRoute(paymentEndpoints.loanPayments),
      ...common,
      handler: async (request) => {
        const loanId = idOf(LoanIdSchema, request.params.loanId, noLoan);
        const payments = await loanPayments.ofLoan(borrowerClaimsOf(request).sub, loanId);
        if (!payments) throw noLoan();
        return payments;
      },
    });

    app.route({
      ...endpointRoute(paymentEndpoints.makePayment),
      ...common,
      handler: async (request, reply) => {
        const borrowerId = borrowerClaimsOf(request).sub;
        const loanId = idOf(LoanIdSchema, request.params.loanId, noLoan);
        if (!BankAccountIdSchema.safeParse(request.body.bankAccountId).success) throw noAccount();
        const outcome = await loanPayments.pay(borrowerId, loanId, request.body, source(request));
        if (!outcome) throw noLoanOrAccount();
        if (!outcome.ok) throw refused(outcome.problem);
        request.log.info(
          { borrowerId, loanId, paymentId: outcome.value.id, amountCents: outcome.value.amountCents },
          'payment scheduled',
        );
        return reply.code(201).send(outcome.value);
      },
    });

    app.route({
      ...endpointRoute(paymentEndpoints.cancelPayment),
      ...common,
      handler: async (request) => {
        const borrowerId = borrowerClaimsOf(request).sub;
        const loanId = idOf(LoanIdSchema, request.params.loanId, noPayment);
        const paymentId = idOf(PaymentIdSchema, request.params.paymentId, noPayment);
        const outcome = await loanPayments.cancel(borrowerId, loanId, paymentId, borrower(request));
        if (!outcome) throw noPayment();
        if (!outcome.ok) throw refused(outcome.problem);
        request.log.info({ borrowerId, loanId, paymentId }, 'payment cancelled');
        return outcome.value;
      },
    });

    app.route({
      ...endpointRoute(paymentEndpoints.turnOnAutopay),
      ...common,
      handler: async (request) => {
        const borrowerId = borrowerClaimsOf(request).sub;
        const loanId = idOf(LoanIdSchema, request.params.loanId, noLoan);
        if (!BankAccountIdSchema.safeParse(request.body.bankAccountId).success) throw noAccount();
        const outcome = await loanPayments.turnOnAutopay(borrowerId, loanId, request.body, source(request));
        if (!outcome) throw noLoanOrAccount();
        if (!outcome.ok) throw refused(outcome.problem);
        request.log.info({ borrowerId, loanId }, 'autopay turned on');
        return outcome.value;
      },
    });

    app.route({
      ...endpointRoute(paymentEndpoints.turnOffAutopay),
      ...common,
      handler: async (request) => {
        const borrowerId = borrowerClaimsOf(request).sub;
        const loanId = idOf(LoanIdSchema, request.params.loanId, noLoan);
        const autopay = await loanPayments.turnOffAutopay(borrowerId, loanId, borrower(request));
        if (!autopay) throw noLoan();
        request.log.info({ borrowerId, loanId }, 'autopay turned off');
        return autopay;
      },
    });
  };
