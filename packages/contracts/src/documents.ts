import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { DocumentStateSchema, LoanStatusSchema } from './loans.js';

// The borrower's documents across all their loans: what the documents page lists, the reading view
// shows and the signed PDF certifies.

/** The loan a document belongs to, as much of it as the documents page names. */
export const DocumentLoanSchema = z.object({
  id: z.string(),
  reference: z.string(),
  product: z.string(),
  status: LoanStatusSchema.exclude(['HIDDEN']),
});
export type DocumentLoan = z.infer<typeof DocumentLoanSchema>;

export const DocumentSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  requiresSignature: z.boolean(),
  state: DocumentStateSchema,
  reviewedAt: z.string().nullable(),
  signedAt: z.string().nullable(),
  signatureName: z.string().nullable(),
  /** A signed document's PDF (the text and its signature certificate) can be downloaded. */
  hasSignedPdf: z.boolean(),
  /**
   * The document can be downloaded as a PDF (documentPdf): a signed one with its certificate, one that
   * needs no signature from the start (saying when it was reviewed, once it is). Not an unsigned one
   * that needs a signature.
   */
  hasPdf: z.boolean(),
});
export type DocumentSummary = z.infer<typeof DocumentSummarySchema>;

export const DocumentListSchema = z.object({
  /** Open loans first, as the loans page orders them; each loan's documents in checkout order. */
  loans: z.array(z.object({ loan: DocumentLoanSchema, documents: z.array(DocumentSummarySchema) })),
});
export type DocumentList = z.infer<typeof DocumentListSchema>;

export const BorrowerDocumentSchema = DocumentSummarySchema.extend({
  loan: DocumentLoanSchema,
  /** The document's text, exactly as it was (or will be) signed. */
  body: z.string(),
  /** SHA-256 of the signed text (UTF-8), hex; null until the document is signed. */
  fingerprint: z.string().nullable(),
  /** The account that signed, as it was then (null: not signed, or signed before accounts were recorded). */
  signer: z.object({ name: z.string(), email: z.string().nullable() }).nullable(),
});
export type BorrowerDocument = z.infer<typeof BorrowerDocumentSchema>;

/** The PDF's file name: the loan number and the document's title, in plain ASCII. */
export function signedPdfFileName(reference: string, title: string): string {
  const slug = `${reference} ${title} signed`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug || 'signed-document'}.pdf`;
}

/** The PDF's file name of a document that needs no signature: the loan number and its title. */
export function documentPdfFileName(reference: string, title: string): string {
  const slug = `${reference} ${title}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug || 'document'}.pdf`;
}

/** The signed-in borrower's documents across their loans (an id of no document of theirs: 404). */
export const documentEndpoints = {
  documents: endpoint({
    method: 'GET',
    path: '/api/borrower/documents',
    tag: 'borrower',
    summary: "Every document of the borrower's loans, grouped by loan (HIDDEN loans never)",
    access: 'borrower',
    responses: { 200: DocumentListSchema },
  }),
  document: endpoint({
    method: 'GET',
    path: '/api/borrower/documents/:documentId',
    tag: 'borrower',
    summary: "One of the borrower's documents, with its text and, once signed, its fingerprint",
    access: 'borrower',
    responses: { 200: BorrowerDocumentSchema },
    errors: { 404: ['not_found'] },
  }),
  signedDocumentPdf: endpoint({
    method: 'GET',
    path: '/api/borrower/documents/:documentId/signed.pdf',
    tag: 'borrower',
    summary: 'A signed document as a PDF with its signature certificate (the same bytes every time)',
    access: 'borrower',
    // The PDF's bytes: sent as they are stored, never serialized.
    responses: { 200: z.any().describe('application/pdf') },
    errors: { 404: ['not_found'], 409: ['not_signed'] },
  }),
  documentPdf: endpoint({
    method: 'GET',
    path: '/api/borrower/documents/:documentId/document.pdf',
    tag: 'borrower',
    summary:
      'A document as a PDF: a signed one with its certificate (the signed PDF), one that needs no signature without (with when it was reviewed)',
    access: 'borrower',
    responses: { 200: z.any().describe('application/pdf') },
    errors: { 404: ['not_found'], 409: ['not_signed'] },
  }),
};
