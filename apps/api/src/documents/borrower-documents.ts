import type {
  Locale,
  BorrowerDocument,
  DocumentList,
  DocumentLoan,
  DocumentState,
  DocumentSummary,
} from '@customer-core/contracts';
import { isoOf } from '../loans/borrower-loans.js';
import { sha256Hex } from '../loans/loan-checkout.js';
import type { ApiTransaction } from '../db/schema.js';
import type { DocumentRepository, DocumentRow } from './document-repository.js';
import { renderReviewedDocumentPdf, renderSignedDocumentPdf } from './signed-document-pdf.js';
import { signInOf } from './sign-in-evidence.js';

// The borrower's documents across their loans. Every query names the borrower (see
// document-repository.ts), so a document id alone never reaches another borrower's document, and
// documents of HIDDEN loans never leave.

function loanOf(row: DocumentRow): DocumentLoan {
  if (row.status === 'HIDDEN') throw new Error('a HIDDEN loan reached the borrower view');
  return { id: row.loan_id, reference: row.reference, product: row.product, status: row.status };
}

function summaryOf(row: DocumentRow): DocumentSummary {
  const state: DocumentState = row.signed_at ? 'signed' : row.reviewed_at ? 'reviewed' : 'to_review';
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    requiresSignature: row.requires_signature,
    state,
    reviewedAt: isoOf(row.reviewed_at),
    signedAt: isoOf(row.signed_at),
    signatureName: row.signature_name,
    hasSignedPdf: state === 'signed',
    hasPdf: state === 'signed' || !row.requires_signature,
  };
}

export type SignedPdfOutcome =
  | { ok: true; pdf: Buffer; fileTitle: { reference: string; title: string } }
  | { ok: false; problem: 'not_found' | 'not_signed' };

/** signed: the signed PDF (with its certificate), else the PDF of a document that needs no signature. */
export type DocumentPdfOutcome =
  | { ok: true; pdf: Buffer; signed: boolean; fileTitle: { reference: string; title: string } }
  | { ok: false; problem: 'not_found' | 'not_signed' };

/**
 * The signed document's PDF: the one stored, else written now and stored, so that it is the same
 * bytes ever after (two first writes at once keep the first: see storeSignedPdf).
 */
async function signedPdfOf(
  repository: Pick<DocumentRepository, 'pdfSourceOf' | 'storeSignedPdf'>,
  lender: { name: string },
  borrowerId: string,
  documentId: string,
  locale: () => Promise<Locale>,
): Promise<SignedPdfOutcome> {
  const row = await repository.pdfSourceOf(borrowerId, documentId);
  if (!row) return { ok: false, problem: 'not_found' };
  const fileTitle = { reference: row.reference, title: row.title };
  if (!row.signed_at || !row.signature_name) return { ok: false, problem: 'not_signed' };
  if (row.signed_pdf) return { ok: true, pdf: Buffer.from(row.signed_pdf), fileTitle };

  const written = await renderSignedDocumentPdf({
    title: row.title,
    body: row.body,
    loanReference: row.reference,
    product: row.product,
    lenderName: lender.name,
    locale: await locale(),
    signatureName: row.signature_name,
    signedAt: new Date(row.signed_at),
    signer: row.signer_name ? { name: row.signer_name, email: row.signer_email } : null,
    signIn: row.signer_amr || row.signer_auth_time ? signInOf(row.signer_amr, row.signer_auth_time) : null,
    consent:
      row.esign_consent_version && row.esign_consent_given_at
        ? { version: row.esign_consent_version, givenAt: new Date(row.esign_consent_given_at) }
        : null,
    clientAddress: row.signed_from,
    fingerprint: row.signed_body_sha256 ?? sha256Hex(row.body),
  });
  const stored = await repository.storeSignedPdf(row.id, written);
  return { ok: true, pdf: Buffer.from(stored), fileTitle };
}

/**
 * Writes and stores the PDFs of documents just signed, in the signing's own transaction (`repository`
 * bound to it), so that what the lender's systems hear of a signature is the signed PDF's fingerprint:
 * the bytes every download serves. The signer's language is read first, outside the transaction.
 */
export function signedPdfWriter(
  repositoryIn: (trx: ApiTransaction) => Pick<DocumentRepository, 'pdfSourceOf' | 'storeSignedPdf'>,
  lender: { name: string },
  { localeOf }: { localeOf(borrowerId: string): Promise<Locale> },
) {
  return async (borrowerId: string) => {
    const locale = await localeOf(borrowerId);
    return async (trx: ApiTransaction, documentId: string): Promise<Buffer> => {
      const written = await signedPdfOf(
        repositoryIn(trx),
        lender,
        borrowerId,
        documentId,
        async () => locale,
      );
      if (!written.ok) throw new Error(`document ${documentId} was not signed in this transaction`);
      return written.pdf;
    };
  };
}

/**
 * A borrower's own documents: the list, one with its text, and a signed one as a PDF. `localeOf`: the
 * borrower's language, that of the portal's words on a PDF (its signature certificate).
 */
export function borrowerDocuments(
  repository: DocumentRepository,
  lender: { name: string },
  { localeOf }: { localeOf(borrowerId: string): Promise<Locale> },
) {
  const documents = {
    /** Every document of the borrower's visible loans, grouped by loan. */
    async list(borrowerId: string): Promise<DocumentList> {
      const rows = await repository.documentsOf(borrowerId);
      const groups = new Map<string, DocumentList['loans'][number]>();
      for (const row of rows) {
        let group = groups.get(row.loan_id);
        if (!group) groups.set(row.loan_id, (group = { loan: loanOf(row), documents: [] }));
        group.documents.push(summaryOf(row));
      }
      return { loans: [...groups.values()] };
    },

    /** One of the borrower's documents with its text; undefined if it is not theirs, or unknown. */
    async one(borrowerId: string, documentId: string): Promise<BorrowerDocument | undefined> {
      const row = await repository.documentOf(borrowerId, documentId);
      if (!row) return undefined;
      const summary = summaryOf(row);
      return {
        ...summary,
        loan: loanOf(row),
        body: row.body,
        // Signatures made before fingerprints were recorded: the text never changes once checkout starts.
        fingerprint: row.signed_at ? (row.signed_body_sha256 ?? sha256Hex(row.body)) : null,
        signer: row.signed_at && row.signer_name ? { name: row.signer_name, email: row.signer_email } : null,
      };
    },

    /**
     * The signed document's PDF. Written on its first download and stored so that two first downloads
     * at once still serve the very same bytes (see storeSignedPdf): its certificate is in the signer's
     * language then.
     */
    async signedPdf(borrowerId: string, documentId: string): Promise<SignedPdfOutcome> {
      return signedPdfOf(repository, lender, borrowerId, documentId, () => localeOf(borrowerId));
    },

    /**
     * The document as a PDF to keep: a signed one's signed PDF; one that needs no signature written
     * afresh (it is small, and says when it was reviewed once it is). An unsigned one that needs a
     * signature has none: a copy of it is not what the borrower agreed to.
     */
    async pdf(borrowerId: string, documentId: string): Promise<DocumentPdfOutcome> {
      const row = await repository.pdfSourceOf(borrowerId, documentId);
      if (!row) return { ok: false, problem: 'not_found' };
      if (row.requires_signature) {
        const signed = await documents.signedPdf(borrowerId, documentId);
        return signed.ok ? { ...signed, signed: true } : signed;
      }
      const pdf = await renderReviewedDocumentPdf({
        title: row.title,
        body: row.body,
        loanReference: row.reference,
        product: row.product,
        lenderName: lender.name,
        locale: await localeOf(borrowerId),
        reviewedAt: row.reviewed_at ? new Date(row.reviewed_at) : null,
        writtenAt: new Date(row.loan_created_at),
      });
      return { ok: true, pdf, signed: false, fileTitle: { reference: row.reference, title: row.title } };
    },
  };
  return documents;
}

export type BorrowerDocuments = ReturnType<typeof borrowerDocuments>;
