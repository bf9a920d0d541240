import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DocumentIdSchema,
  documentEndpoints,
  documentPdfFileName,
  signedPdfFileName,
} from '@customer-core/contracts';
import { endpointRoute } from '../../http/endpoint-route.js';
import { borrowerClaimsOf, requireBorrower } from '../../session/signed-in-borrower.js';
import { HttpError } from '../../http/http-error.js';
import type { AccessTokenChecker } from '../../session/access-tokens.js';
import type { BorrowerDocuments } from '../borrower-documents.js';

// The signed-in borrower's documents across their loans, each one's text, a signed one's PDF, and any
// document's PDF (a signed one's, or one that needs no signature).
// Another borrower's document, a HIDDEN loan's and an unknown or malformed id get the same 404.

const documentNotFound = () => new HttpError(404, 'not_found', 'No document of yours has that id.');
const notSigned = () =>
  new HttpError(
    409,
    'not_signed',
    'This document is not signed, so it has no signed PDF. Sign it in your loan’s checkout first.',
  );

/** The PDF as a download the browser keeps, never caches. */
const sendPdf = (reply: FastifyReply, pdf: Buffer, fileName: string) =>
  reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'private, no-store')
    .send(pdf);

// Any text is taken in the path: a malformed id names no document, so it gets the unknown id's 404.
function documentIdOf(params: { documentId: string }): string {
  if (!DocumentIdSchema.safeParse(params.documentId).success) throw documentNotFound();
  return params.documentId;
}

export const borrowerDocumentRoutes =
  ({
    documents,
    checkAccessToken,
  }: {
    documents: BorrowerDocuments;
    checkAccessToken: AccessTokenChecker;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const common = { onRequest: requireBorrower(checkAccessToken) };

    app.route({
      ...endpointRoute(documentEndpoints.documents),
      ...common,
      handler: async (request) => documents.list(borrowerClaimsOf(request).sub),
    });

    app.route({
      ...endpointRoute(documentEndpoints.document),
      ...common,
      handler: async (request) => {
        const document = await documents.one(borrowerClaimsOf(request).sub, documentIdOf(request.params));
        if (!document) throw documentNotFound();
        return document;
      },
    });

    app.route({
      ...endpointRoute(documentEndpoints.signedDocumentPdf),
      ...common,
      handler: async (request, reply) => {
        const borrowerId = borrowerClaimsOf(request).sub;
        const documentId = documentIdOf(request.params);
        const outcome = await documents.signedPdf(borrowerId, documentId);
        if (!outcome.ok) throw outcome.problem === 'not_found' ? documentNotFound() : notSigned();
        const fileName = signedPdfFileName(outcome.fileTitle.reference, outcome.fileTitle.title);
        request.log.info({ borrowerId, documentId }, 'signed document downloaded');
        return sendPdf(reply, outcome.pdf, fileName);
      },
    });

    app.route({
      ...endpointRoute(documentEndpoints.documentPdf),
      ...common,
      handler: async (request, reply) => {
        const borrowerId = borrowerClaimsOf(request).sub;
        const documentId = documentIdOf(request.params);
        const outcome = await documents.pdf(borrowerId, documentId);
        if (!outcome.ok) throw outcome.problem === 'not_found' ? documentNotFound() : notSigned();
        const { reference, title } = outcome.fileTitle;
        const fileName = outcome.signed
          ? signedPdfFileName(reference, title)
          : documentPdfFileName(reference, title);
        request.log.info({ borrowerId, documentId, signed: outcome.signed }, 'document downloaded');
        return sendPdf(reply, outcome.pdf, fileName);
      },
    });
  };
