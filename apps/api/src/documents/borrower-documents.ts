import { sql, type Kysely } from 'kysely';
import type {
  BorrowerDocument,
  DocumentList,
  DocumentLoan,
  DocumentState,
  DocumentSummary,
} from '@customer-core/contracts';
import type { ApiDatabase } from '../db/schema.js';
import { isoOf } from '../loans/borrower-loans.js';
import { sha256Hex } from '../loans/loan-checkout.js';
import { renderSignedDocumentPdf } from './signed-document-pdf.js';

// The borrower's documents across their loans. Every query names the borrower, so a document id
// alone never reaches another borrower's document, and documents of HIDDEN loans never leave.

/** Open loans (ACTIVE, PAST DUE) first, then closed ones; newest first within each (as the loans page). */
const OPEN_FIRST = sql<number>`case when loan.status in ('ACTIVE', 'PAST DUE') then 0 else 1 end`;

function documentsOfBorrower(db: Kysely<ApiDatabase>, borrowerId: string) {
  return db
    .selectFrom('loan_document')
    .innerJoin('loan', 'loan.id', 'loan_document.loan_id')
    .where('loan.borrower_id', '=', borrowerId)
    .where('loan.status', '<>', 'HIDDEN')
    .select([
      'loan.id as loan_id',
      'loan.reference',
      'loan.product',
      'loan.status',
      'loan_document.id',
      'loan_document.title',
      'loan_document.description',
      'loan_document.requires_signature',
      'loan_document.reviewed_at',
      'loan_document.signed_at',
      'loan_document.signature_name',
    ]);
}

type DocumentRow = Awaited<ReturnType<ReturnType<typeof documentsOfBorrower>['executeTakeFirstOrThrow']>>;

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
  };
}

/** Every document of the borrower's visible loans, grouped by loan. */
export async function documentListOf(db: Kysely<ApiDatabase>, borrowerId: string): Promise<DocumentList> {
  const rows = await documentsOfBorrower(db, borrowerId)
    .orderBy(OPEN_FIRST)
    .orderBy('loan.created_at', 'desc')
    .orderBy('loan.reference')
    .orderBy('loan_document.position')
    .execute();
  const groups = new Map<string, DocumentList['loans'][number]>();
  for (const row of rows) {
    let group = groups.get(row.loan_id);
    if (!group) groups.set(row.loan_id, (group = { loan: loanOf(row), documents: [] }));
    group.documents.push(summaryOf(row));
  }
  return { loans: [...groups.values()] };
}

/** One of the borrower's documents with its text; undefined if it is not theirs, or unknown. */
export async function documentOfBorrower(
  db: Kysely<ApiDatabase>,
  borrowerId: string,
  documentId: string,
): Promise<BorrowerDocument | undefined> {
  const row = await documentsOfBorrower(db, borrowerId)
    .select(['loan_document.body', 'loan_document.signed_body_sha256'])
    .where('loan_document.id', '=', documentId)
    .executeTakeFirst();
  if (!row) return undefined;
  const summary = summaryOf(row);
  return {
    ...summary,
    loan: loanOf(row),
    body: row.body,
    // Signatures made before fingerprints were recorded: the text never changes once checkout starts.
    fingerprint: row.signed_at ? (row.signed_body_sha256 ?? sha256Hex(row.body)) : null,
  };
}

export type SignedPdfOutcome =
  | { ok: true; pdf: Buffer; fileTitle: { reference: string; title: string } }
  | { ok: false; problem: 'not_found' | 'not_signed' };

/**
 * The signed document's PDF. Written on its first download and stored in one statement that keeps
 * whatever is there already, so two first downloads at once still serve the very same bytes.
 */
export async function signedPdfOf(
  db: Kysely<ApiDatabase>,
  borrowerId: string,
  documentId: string,
  lenderName: string,
): Promise<SignedPdfOutcome> {
  const row = await documentsOfBorrower(db, borrowerId)
    .select([
      'loan_document.body',
      'loan_document.signed_body_sha256',
      'loan_document.signed_from',
      'loan_document.signed_pdf',
    ])
    .where('loan_document.id', '=', documentId)
    .executeTakeFirst();
  if (!row) return { ok: false, problem: 'not_found' };
  const fileTitle = { reference: row.reference, title: row.title };
  if (!row.signed_at || !row.signature_name) return { ok: false, problem: 'not_signed' };
  if (row.signed_pdf) return { ok: true, pdf: Buffer.from(row.signed_pdf), fileTitle };

  const written = await renderSignedDocumentPdf({
    title: row.title,
    body: row.body,
    loanReference: row.reference,
    product: row.product,
    lenderName,
    signatureName: row.signature_name,
    signedAt: new Date(row.signed_at),
    clientAddress: row.signed_from,
    fingerprint: row.signed_body_sha256 ?? sha256Hex(row.body),
  });
  const stored = await db
    .updateTable('loan_document')
    .set({ signed_pdf: sql<Uint8Array>`coalesce(signed_pdf, ${written})` })
    .where('id', '=', row.id)
    .returning('signed_pdf')
    .executeTakeFirstOrThrow();
  if (!stored.signed_pdf) throw new Error('the signed PDF was not stored');
  return { ok: true, pdf: Buffer.from(stored.signed_pdf), fileTitle };
}

/** A borrower's own documents: the list, one with its text, and a signed one as a PDF. */
export function borrowerDocuments(db: Kysely<ApiDatabase>, lender: { name: string }) {
  return {
    list: (borrowerId: string) => documentListOf(db, borrowerId),
    one: (borrowerId: string, documentId: string) => documentOfBorrower(db, borrowerId, documentId),
    signedPdf: (borrowerId: string, documentId: string) =>
      signedPdfOf(db, borrowerId, documentId, lender.name),
  };
}

export type BorrowerDocuments = ReturnType<typeof borrowerDocuments>;
