import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DocumentIdSchema,
  ESIGN_CONSENT_OUTDATED_MESSAGE,
  ESIGN_CONSENT_REQUIRED_MESSAGE,
  LoanIdSchema,
  NO_ACCOUNT_NAME_MESSAGE,
  SIGNING_ERROR_CODES,
  loanEndpoints,
  signatureNameMismatchMessage,
  signingEndpoints,
} from '@customer-core/contracts';
import type { FastifyRequest } from 'fastify';
import { endpointRoute } from '../../http/endpoint-route.js';
import { borrowerClaimsOf, requireBorrower } from '../../session/signed-in-borrower.js';
import { HttpError } from '../../http/http-error.js';
import type { StepUpGuard } from '../../account/step-up.js';
import type { AccessTokenChecker } from '../../session/access-tokens.js';
import type { BorrowerLoans } from '../borrower-loans.js';
import type { CheckoutOutcome, LoanCheckout, SignatureRequest } from '../loan-checkout.js';

// The signed-in borrower's loans and their document checkout. A loan of someone else, a HIDDEN loan
// and an unknown id get the very same answer, so nothing tells them apart.

const LOAN_NOT_FOUND = 'No loan of yours has that id.';
const notFound = () => new HttpError(404, 'not_found', LOAN_NOT_FOUND);
const STEP_UP_MESSAGE = 'To sign this document, confirm it\u2019s you.';
const STEP_UP_MESSAGE_ALL = 'To sign these documents, confirm it\u2019s you.';
const documentNotFound = () => new HttpError(404, 'not_found', 'This loan has no document with that id.');

// The ids in the path are taken as any text: one that is not even well-formed names no loan or
// document, so it gets the unknown id's 404 (after the token check), not a validation error.

function loanIdOf(params: { loanId: string }): string {
  if (!LoanIdSchema.safeParse(params.loanId).success) throw notFound();
  return params.loanId;
}

function documentIdsOf(params: { loanId: string; documentId: string }) {
  const loanId = loanIdOf(params);
  if (!DocumentIdSchema.safeParse(params.documentId).success) throw documentNotFound();
  return { loanId, documentId: params.documentId };
}

/** Why a checkout step was refused, told so that the borrower knows what to do. */
function checkoutRefused(outcome: Extract<CheckoutOutcome, { ok: false }>): HttpError {
  switch (outcome.problem) {
    case 'loan_not_found':
      return notFound();
    case 'document_not_found':
      return documentNotFound();
    case 'not_checkout_status':
      return new HttpError(
        409,
        'checkout_unavailable',
        'This loan isn’t active: only an active loan’s documents can be reviewed and signed.',
      );
    case 'no_documents':
      return new HttpError(409, 'no_documents', 'This loan has no documents to review or sign yet.');
    case 'not_started':
      return new HttpError(409, 'checkout_not_started', "Start this loan's checkout first.");
    case 'not_reviewed':
      return new HttpError(409, 'not_reviewed', 'Review this document before you sign it.');
    case 'no_signature_needed':
      return new HttpError(
        409,
        'no_signature_needed',
        'This document needs no signature: reviewing it is enough.',
      );
    case 'already_signed':
      return new HttpError(409, 'already_signed', 'You have signed this document already.');
    case 'no_account_name':
      return new HttpError(409, SIGNING_ERROR_CODES.noAccountName, NO_ACCOUNT_NAME_MESSAGE);
    case 'consent_required':
      return new HttpError(409, SIGNING_ERROR_CODES.consentRequired, ESIGN_CONSENT_REQUIRED_MESSAGE);
    case 'name_mismatch':
      return new HttpError(
        400,
        SIGNING_ERROR_CODES.nameMismatch,
        signatureNameMismatchMessage(outcome.accountName),
      );
  }
}

/** The signature as this request makes it: the name typed, and the sign-in its token carries. */
function signatureOf(request: FastifyRequest, name: string): SignatureRequest {
  const claims = borrowerClaimsOf(request);
  return { name, clientAddress: request.ip, amr: claims.amr ?? null, authTime: claims.auth_time };
}

function answer(outcome: CheckoutOutcome) {
  if (!outcome.ok) throw checkoutRefused(outcome);
  return outcome.loan;
}

export const borrowerLoanRoutes =
  ({
    borrowerLoans,
    checkout,
    checkAccessToken,
    stepUp,
  }: {
    borrowerLoans: BorrowerLoans;
    checkout: LoanCheckout;
    checkAccessToken: AccessTokenChecker;
    stepUp: StepUpGuard;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const common = { onRequest: requireBorrower(checkAccessToken) };

    app.route({
      ...endpointRoute(loanEndpoints.loans),
      ...common,
      handler: async (request) => ({ loans: await borrowerLoans.list(borrowerClaimsOf(request).sub) }),
    });

    app.route({
      ...endpointRoute(loanEndpoints.loan),
      ...common,
      handler: async (request) => {
        const loan = await borrowerLoans.one(borrowerClaimsOf(request).sub, loanIdOf(request.params));
        if (!loan) throw notFound();
        return loan;
      },
    });

    app.route({
      ...endpointRoute(loanEndpoints.startCheckout),
      ...common,
      handler: async (request) => {
        const borrowerId = borrowerClaimsOf(request).sub;
        const loanId = loanIdOf(request.params);
        const outcome = await checkout.start(borrowerId, loanId);
        if (outcome.ok) request.log.info({ borrowerId, loanId }, 'loan checkout started');
        return answer(outcome);
      },
    });

    app.route({
      ...endpointRoute(loanEndpoints.reviewDocument),
      ...common,
      handler: async (request) => {
        const borrowerId = borrowerClaimsOf(request).sub;
        const { loanId, documentId } = documentIdsOf(request.params);
        const outcome = await checkout.review(borrowerId, loanId, documentId);
        if (outcome.ok && outcome.completedNow)
          request.log.info({ borrowerId, loanId }, 'loan checkout completed');
        return answer(outcome);
      },
    });

    app.route({
      ...endpointRoute(loanEndpoints.signDocument),
      ...common,
      handler: async (request) => {
        const borrowerId = borrowerClaimsOf(request).sub;
        const { loanId, documentId } = documentIdsOf(request.params);
        await stepUp.require(request, STEP_UP_MESSAGE, { loanId, documentId, action: 'sign document' });
        const outcome = await checkout.sign(
          borrowerId,
          loanId,
          [documentId],
          signatureOf(request, request.body.signatureName),
        );
        if (outcome.ok) {
          request.log.info({ borrowerId, loanId, documentId }, 'loan document signed');
          if (outcome.completedNow) request.log.info({ borrowerId, loanId }, 'loan checkout completed');
        }
        return answer(outcome);
      },
    });

    app.route({
      ...endpointRoute(loanEndpoints.signDocuments),
      ...common,
      handler: async (request) => {
        const borrowerId = borrowerClaimsOf(request).sub;
        const loanId = loanIdOf(request.params);
        const { documentIds, signatureName } = request.body;
        await stepUp.require(request, STEP_UP_MESSAGE_ALL, { loanId, action: 'sign documents' });
        const outcome = await checkout.sign(
          borrowerId,
          loanId,
          documentIds,
          signatureOf(request, signatureName),
        );
        if (outcome.ok) {
          request.log.info({ borrowerId, loanId, documentIds }, 'loan documents signed');
          if (outcome.completedNow) request.log.info({ borrowerId, loanId }, 'loan checkout completed');
        }
        return answer(outcome);
      },
    });

    app.route({
      ...endpointRoute(signingEndpoints.esignConsent),
      ...common,
      handler: (request) => checkout.esignConsent(borrowerClaimsOf(request).sub),
    });

    app.route({
      ...endpointRoute(signingEndpoints.giveEsignConsent),
      ...common,
      handler: async (request) => {
        const borrowerId = borrowerClaimsOf(request).sub;
        const given = await checkout.giveEsignConsent(borrowerId, request.body.version, request.ip);
        if (!given)
          throw new HttpError(409, SIGNING_ERROR_CODES.consentOutdated, ESIGN_CONSENT_OUTDATED_MESSAGE);
        request.log.info({ borrowerId, version: given.version }, 'consent to sign electronically given');
        return given;
      },
    });
  };
