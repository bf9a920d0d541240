import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PaymentIdSchema, operatorPaymentEndpoints } from '@customer-core/contracts';
import { clientAddress } from '@customer-core/contracts/server';
import { operatorOf } from '../../console/operator-access.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import type { LoanPaymentService } from '../../payments/loan-payments.js';
import type { Settlement } from '../../payments/settlement.js';
import type { BorrowerRepository } from '../../borrowers/borrower-repository.js';

// The lender's side of payments (`npm run cli -- payments`, the staff console): a run that writes the
// bank's file, its export, its settlement, the bank's returns, and a borrower's payments for staff.

/** A malformed id names nothing: the unknown id's 404. */
const isId = (value: string) => PaymentIdSchema.safeParse(value).success;
const noFile = () => new HttpError(404, 'not_found', 'No payment file has that id.');
const noPayment = () => new HttpError(404, 'not_found', 'No payment has that id.');
const noBorrower = () => new HttpError(404, 'not_found', 'No borrower has that id.');

export const operatorPaymentRoutes =
  ({
    settlement,
    loanPayments,
    borrowers,
    trustProxy,
  }: {
    settlement: Settlement;
    loanPayments: LoanPaymentService;
    borrowers: BorrowerRepository;
    trustProxy: boolean;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const actorOf = (request: Parameters<typeof operatorOf>[0]) => {
      const { actor, role } = operatorOf(request);
      return { actor, role, clientAddress: clientAddress(request, trustProxy), requestId: request.id };
    };

    app.route({
      ...endpointRoute(operatorPaymentEndpoints.run),
      handler: async (request) => {
        const file = await settlement.run(actorOf(request), request.body.through);
        if (file === 'too_far')
          throw new HttpError(400, 'bad_request', 'through: no payment can be scheduled that far ahead.');
        return { file };
      },
    });

    app.route({
      ...endpointRoute(operatorPaymentEndpoints.files),
      handler: async () => ({ files: await settlement.files() }),
    });

    app.route({
      ...endpointRoute(operatorPaymentEndpoints.exportFile),
      handler: async (request, reply) => {
        if (!isId(request.params.fileId)) throw noFile();
        const exported = await settlement.export(request.params.fileId, request.body.force);
        if (!exported) throw noFile();
        if (exported === 'refused')
          throw new HttpError(
            409,
            'already_exported',
            'This file was exported before. Export it again only if the bank never got it (--force, with a reason).',
          );
        request.log.info(
          { operator: operatorOf(request).actor, fileId: exported.file.id, sha256: exported.file.sha256 },
          'payment file exported',
        );
        reply.header('cache-control', 'no-store');
        return exported;
      },
    });

    app.route({
      ...endpointRoute(operatorPaymentEndpoints.settleFile),
      handler: async (request) => {
        if (!isId(request.params.fileId)) throw noFile();
        const settled = await settlement.settle(request.params.fileId, actorOf(request));
        if (!settled) throw noFile();
        return settled;
      },
    });

    app.route({
      ...endpointRoute(operatorPaymentEndpoints.returns),
      handler: async (request) => {
        try {
          return { returns: await settlement.readReturns(request.body.content, actorOf(request)) };
        } catch (error) {
          if (error instanceof Error && error.message.startsWith('The returns file'))
            throw new HttpError(400, 'bad_request', error.message);
          throw error;
        }
      },
    });

    app.route({
      ...endpointRoute(operatorPaymentEndpoints.borrowerPayments),
      handler: async (request) => {
        const { borrowerId } = request.params;
        if (!isId(borrowerId) || !(await borrowers.findById(borrowerId))) throw noBorrower();
        return loanPayments.ofBorrower(borrowerId);
      },
    });

    app.route({
      ...endpointRoute(operatorPaymentEndpoints.cancelPayment),
      handler: async (request) => {
        if (!isId(request.params.paymentId)) throw noPayment();
        const payment = await loanPayments.paymentById(request.params.paymentId);
        if (!payment) throw noPayment();
        const outcome = await loanPayments.cancel(payment.borrower_id, payment.loan_id, payment.id, {
          ...actorOf(request),
          reason: request.body.reason,
        });
        if (!outcome) throw noPayment();
        if (!outcome.ok)
          throw new HttpError(
            409,
            'not_cancellable',
            'This payment can’t be cancelled any more: it’s on its way to the bank.',
          );
        return outcome.value;
      },
    });
  };
