import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AddLoanRequestSchema,
  apiPaths,
  ApiErrorSchema,
  LoanReferenceParamsSchema,
  LoanScheduleSchema,
  OperatorLoanSchema,
  RecordInstalmentRequestSchema,
  UpdateLoanRequestSchema,
} from '@customer-core/contracts';
import { HttpError } from '../../http/http-error.js';
import { requireTrustedService } from '../../http/service-credential.js';
import type { ServiceCredential } from '../../config/service-credentials.js';
import type { LoanBook } from '../loan-book.js';

/** Operators add loans and change their terms (service credential; `npm run cli` drives these). */
export const operatorLoanRoutes =
  ({
    loanBook: book,
    serviceCredentials,
  }: {
    loanBook: LoanBook;
    serviceCredentials: readonly ServiceCredential[];
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const described = { tags: ['operators'], security: [{ bearer: [] }] };

    app.post(
      apiPaths.operator.loans,
      {
        onRequest: requireTrustedService(serviceCredentials, 'operator'),
        schema: {
          ...described,
          summary: 'Add a loan for the borrower with this e-mail address (created if there is none)',
          body: AddLoanRequestSchema,
          response: {
            201: OperatorLoanSchema,
            400: ApiErrorSchema,
            401: ApiErrorSchema,
            403: ApiErrorSchema,
            409: ApiErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const service = request.trustedService;
        const outcome = await book.add(request.body);
        if (!outcome.ok)
          throw new HttpError(
            409,
            'reference_taken',
            `A loan with the reference ${request.body.reference} exists already. Use update-loan to change it.`,
          );
        const { loan } = outcome;
        request.log.info(
          { service, loanId: loan.id, reference: loan.reference, status: loan.status },
          'loan added',
        );
        return reply.status(201).send(loan);
      },
    );

    app.patch(
      apiPaths.operator.loan.path,
      {
        onRequest: requireTrustedService(serviceCredentials, 'operator'),
        schema: {
          ...described,
          summary: 'Change the terms of a loan (only the terms given)',
          params: LoanReferenceParamsSchema,
          body: UpdateLoanRequestSchema,
          response: {
            200: OperatorLoanSchema,
            400: ApiErrorSchema,
            401: ApiErrorSchema,
            403: ApiErrorSchema,
            404: ApiErrorSchema,
          },
        },
      },
      async (request) => {
        const service = request.trustedService;
        const { reference } = request.params;
        const loan = await book.update(reference, request.body);
        if (!loan) throw new HttpError(404, 'not_found', `No loan has the reference ${reference}.`);
        request.log.info(
          { service, loanId: loan.id, reference, changed: Object.keys(request.body) },
          'loan updated',
        );
        return loan;
      },
    );

    app.post(
      apiPaths.operator.loanInstalments.path,
      {
        onRequest: requireTrustedService(serviceCredentials, 'operator'),
        schema: {
          ...described,
          summary:
            "Record an instalment of a loan's payment schedule (one per due day: a new one, or a change)",
          params: LoanReferenceParamsSchema,
          body: RecordInstalmentRequestSchema,
          response: {
            200: LoanScheduleSchema,
            400: ApiErrorSchema,
            401: ApiErrorSchema,
            403: ApiErrorSchema,
            404: ApiErrorSchema,
          },
        },
      },
      async (request) => {
        const { reference } = request.params;
        const schedule = await book.recordInstalment(reference, request.body);
        if (!schedule) throw new HttpError(404, 'not_found', `No loan has the reference ${reference}.`);
        request.log.info(
          {
            service: request.trustedService,
            reference,
            dueOn: request.body.dueOn,
            paid: request.body.paidOn !== null,
          },
          'instalment recorded',
        );
        return schedule;
      },
    );
  };
