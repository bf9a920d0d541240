import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LoanReferenceSchema, operatorEndpoints } from '@customer-core/contracts';
import { HttpError } from '../../http/http-error.js';
import { operatorOf } from '../../console/operator-access.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import type { LoanBook } from '../../loans/loan-book.js';

/**
 * The path's loan reference, trimmed. The endpoint takes any text there, so the check the params'
 * schema made stays here: a malformed reference is a bad request (400), not an unknown loan (404).
 */
function referenceOf(params: { reference: string }): string {
  const parsed = LoanReferenceSchema.safeParse(params.reference);
  if (parsed.success) return parsed.data;
  throw new HttpError(
    400,
    'bad_request',
    parsed.error.issues.map((issue) => `reference: ${issue.message}`).join('; '),
  );
}

/** Operators add loans and change their terms (service credential; `npm run cli` drives these). */
export const operatorLoanRoutes =
  ({ loanBook: book }: { loanBook: LoanBook }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(operatorEndpoints.loans),
      handler: async (request, reply) => {
        const operator = operatorOf(request).actor;
        const outcome = await book.add(request.body);
        if (!outcome.ok)
          throw new HttpError(
            409,
            'reference_taken',
            `A loan with the reference ${request.body.reference} exists already. Use update-loan to change it.`,
          );
        const { loan } = outcome;
        request.log.info(
          { operator, loanId: loan.id, reference: loan.reference, status: loan.status },
          'loan added',
        );
        return reply.status(201).send(loan);
      },
    });

    app.route({
      ...endpointRoute(operatorEndpoints.loan),
      handler: async (request) => {
        const operator = operatorOf(request).actor;
        const reference = referenceOf(request.params);
        const outcome = await book.update(reference, request.body);
        if (!outcome.ok) {
          if (outcome.problem === 'not_found')
            throw new HttpError(404, 'not_found', `No loan has the reference ${reference}.`);
          throw new HttpError(
            400,
            'contradictory_terms',
            `Changed so, the loan's terms would contradict each other: ${outcome.contradictions.join('; ')}.`,
          );
        }
        const { loan, before } = outcome;
        const { product, status, amountCents, balanceCents, nextPayment } = loan;
        request.auditChange = { before, after: { product, status, amountCents, balanceCents, nextPayment } };
        request.log.info(
          { operator, loanId: loan.id, reference, changed: Object.keys(request.body) },
          'loan updated',
        );
        return loan;
      },
    });

    app.route({
      ...endpointRoute(operatorEndpoints.loanInstalments),
      handler: async (request) => {
        const reference = referenceOf(request.params);
        const schedule = await book.recordInstalment(reference, request.body);
        if (!schedule) throw new HttpError(404, 'not_found', `No loan has the reference ${reference}.`);
        request.log.info(
          {
            operator: operatorOf(request).actor,
            reference,
            dueOn: request.body.dueOn,
            paid: request.body.paidOn !== null,
          },
          'instalment recorded',
        );
        return schedule;
      },
    });
  };
