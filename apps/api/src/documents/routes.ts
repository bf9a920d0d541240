import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiPaths,
  ApiErrorSchema,
  BorrowerDocumentSchema,
  DocumentIdSchema,
  DocumentListSchema,
  signedPdfFileName,
} from '@customer-core/contracts';
import { borrowerClaimsOf, requireBorrower } from '../http/bearer.js';
import { HttpError } from '../http/http-error.js';
import type { AccessTokenChecker } from '../session/access-tokens.js';
import type { BorrowerDocuments } from './borrower-documents.js';

// The signed-in borrower's documents across their loans, each one's text, and a signed one's PDF.
// Another borrower's document, a HIDDEN loan's and an unknown or malformed id get the same 404.

const documentNotFound = () => new HttpError(404, 'not_found', 'No document of yours has that id.');

// Any text is taken: a malformed id names no document, so it gets the unknown id's 404.
const DocumentPathSchema = z.object({ documentId: z.string() });

function documentIdOf(params: { documentId: string }): string {
  if (!DocumentIdSchema.safeParse(params.documentId).success) throw documentNotFound();
  return params.documentId;
}

const errors = { 401: ApiErrorSchema, 404: ApiErrorSchema };

export const borrowerDocumentRoutes =
  ({
    documents,
    checkAccessToken,
  }: {
    documents: BorrowerDocuments;
    checkAccessToken: AccessTokenChecker;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const common = { preHandler: requireBorrower(checkAccessToken) };
    const described = { tags: ['borrower'], security: [{ bearer: [] }] };

    app.get(
      apiPaths.borrower.documents,
      {
        ...common,
        schema: {
          ...described,
          summary: "Every document of the borrower's loans, grouped by loan (HIDDEN loans never)",
          response: { 200: DocumentListSchema, ...errors },
        },
      },
      async (request) => documents.list(borrowerClaimsOf(request).sub),
    );

    app.get(
      apiPaths.borrower.document.path,
      {
        ...common,
        schema: {
          ...described,
          summary: "One of the borrower's documents, with its text and, once signed, its fingerprint",
          params: DocumentPathSchema,
          response: { 200: BorrowerDocumentSchema, ...errors },
        },
      },
      async (request) => {
        const document = await documents.one(borrowerClaimsOf(request).sub, documentIdOf(request.params));
        if (!document) throw documentNotFound();
        return document;
      },
    );

    app.get(
      apiPaths.borrower.signedDocumentPdf.path,
      {
        ...common,
        schema: {
          ...described,
          summary: 'A signed document as a PDF with its signature certificate (the same bytes every time)',
          params: DocumentPathSchema,
          // The PDF's bytes: sent as they are stored, never serialized.
          response: { 200: z.any().describe('application/pdf'), ...errors, 409: ApiErrorSchema },
        },
      },
      async (request, reply) => {
        const borrowerId = borrowerClaimsOf(request).sub;
        const documentId = documentIdOf(request.params);
        const outcome = await documents.signedPdf(borrowerId, documentId);
        if (!outcome.ok) {
          if (outcome.problem === 'not_found') throw documentNotFound();
          throw new HttpError(
            409,
            'not_signed',
            'This document is not signed, so it has no signed PDF. Sign it in your loan’s checkout first.',
          );
        }
        const fileName = signedPdfFileName(outcome.fileTitle.reference, outcome.fileTitle.title);
        request.log.info({ borrowerId, documentId }, 'signed document downloaded');
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .header('cache-control', 'private, no-store')
          .send(outcome.pdf);
      },
    );
  };
