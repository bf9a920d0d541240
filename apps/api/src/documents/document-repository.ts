import { sql, type Kysely } from 'kysely';
import type { ApiDatabase } from '../db/schema.js';

// The SQL of the borrower's documents across their loans. Every query names the borrower, so a
// document id alone never reaches another borrower's document, and documents of HIDDEN loans never leave.

/** Open loans (ACTIVE, PAST DUE) first, then closed ones; newest first within each (as the loans page). */
const OPEN_FIRST = sql<number>`case when loan.status in ('ACTIVE', 'PAST DUE') then 0 else 1 end`;

export function documentRepository(db: Kysely<ApiDatabase>) {
  function documentsOfBorrower(borrowerId: string) {
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

  return {
    /** Every document of the borrower's visible loans, loan by loan in the loans page's order. */
    documentsOf: (borrowerId: string) =>
      documentsOfBorrower(borrowerId)
        .orderBy(OPEN_FIRST)
        .orderBy('loan.created_at', 'desc')
        .orderBy('loan.reference')
        .orderBy('loan_document.position')
        .execute(),

    /** One of the borrower's documents with its text; undefined if it is not theirs, or unknown. */
    documentOf: (borrowerId: string, documentId: string) =>
      documentsOfBorrower(borrowerId)
        .select([
          'loan_document.body',
          'loan_document.signed_body_sha256',
          'loan_document.signer_name',
          'loan_document.signer_email',
        ])
        .where('loan_document.id', '=', documentId)
        .executeTakeFirst(),

    /** The same, with what its PDF is written from, and the signed PDF if it is written already. */
    pdfSourceOf: (borrowerId: string, documentId: string) =>
      documentsOfBorrower(borrowerId)
        .select([
          'loan.created_at as loan_created_at',
          'loan_document.body',
          'loan_document.signed_body_sha256',
          'loan_document.signed_from',
          'loan_document.signed_pdf',
          'loan_document.signer_name',
          'loan_document.signer_email',
          'loan_document.signer_amr',
          'loan_document.signer_auth_time',
          'loan_document.esign_consent_version',
          'loan_document.esign_consent_given_at',
        ])
        .where('loan_document.id', '=', documentId)
        .executeTakeFirst(),

    /**
     * Stores the document's signed PDF in one statement that keeps whatever is there already, so two
     * first downloads at once still serve the very same bytes; the PDF stored.
     */
    async storeSignedPdf(documentId: string, pdf: Uint8Array): Promise<Uint8Array> {
      const stored = await db
        .updateTable('loan_document')
        .set({ signed_pdf: sql<Uint8Array>`coalesce(signed_pdf, ${pdf})` })
        .where('id', '=', documentId)
        .returning('signed_pdf')
        .executeTakeFirstOrThrow();
      if (!stored.signed_pdf) throw new Error('the signed PDF was not stored');
      return stored.signed_pdf;
    },
  };
}

export type DocumentRepository = ReturnType<typeof documentRepository>;

/** A document of the borrower's list (see documentRepository.documentsOf). */
export type DocumentRow = Awaited<ReturnType<DocumentRepository['documentsOf']>>[number];
