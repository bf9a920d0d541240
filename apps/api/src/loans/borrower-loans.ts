import type {
  CheckoutStatus,
  DocumentState,
  LoanDetail,
  LoanDocument,
  LoanSummary,
  Overdue,
} from '@customer-core/contracts';
import type { LoanQueries, VisibleLoanRow } from './loan-repository.js';
import { describeSchedule, loanSchedules, today } from './loan-schedule.js';
import { loanTermsOf } from './loan-terms.js';

// Loans as their borrower sees them. Every query names the borrower (see loan-repository.ts), so a
// loan id alone never reaches another borrower's loan, and HIDDEN loans never leave the database.

/** A timestamp as the API writes it (pg and PGlite both give Date; a string is parsed to be sure). */
export const isoOf = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

export const checkoutStatusOf = (startedAt: unknown, completedAt: unknown): CheckoutStatus =>
  completedAt ? 'completed' : startedAt ? 'in_progress' : 'not_started';

function toSummary(row: VisibleLoanRow, overdue: Overdue | null): LoanSummary {
  const terms = loanTermsOf(row);
  if (terms.status === 'HIDDEN') throw new Error('a HIDDEN loan reached the borrower view');
  return {
    id: row.id,
    reference: row.reference,
    ...terms,
    status: terms.status, // narrowed above: not HIDDEN
    overdue,
    checkout: {
      status: checkoutStatusOf(row.started_at, row.completed_at),
      startedAt: isoOf(row.started_at),
      completedAt: isoOf(row.completed_at),
      documents: Number(row.documents),
      documentsDone: Number(row.documents_done),
    },
  };
}

type DocumentRow = Awaited<ReturnType<LoanQueries['documentsOf']>>[number];

function toDocument(row: DocumentRow): LoanDocument {
  const state: DocumentState = row.signed_at ? 'signed' : row.reviewed_at ? 'reviewed' : 'to_review';
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    body: row.body,
    requiresSignature: row.requires_signature,
    state,
    reviewedAt: isoOf(row.reviewed_at),
    signedAt: isoOf(row.signed_at),
    signatureName: row.signature_name,
  };
}

/**
 * A borrower's own view of their loans: what the borrower API reads. Over the loan repository, or over
 * its queries inside a transaction (a checkout step answers with the loan as it left it).
 */
export function borrowerLoans(loans: LoanQueries) {
  const schedules = loanSchedules(loans);
  return {
    /** The borrower's loans, HIDDEN ones left out, open ones first, each with what is past due. */
    async list(borrowerId: string, day = today()): Promise<LoanSummary[]> {
      const rows = await loans.visibleLoans(borrowerId);
      const instalments = await loans.instalmentsOfLoans(rows.map((row) => row.id));
      return rows.map((row) =>
        toSummary(
          row,
          describeSchedule(
            instalments.filter((instalment) => instalment.loan_id === row.id),
            day,
          ).overdue,
        ),
      );
    },

    /** One of the borrower's loans with its documents; undefined if it is not theirs, HIDDEN or unknown. */
    async one(borrowerId: string, loanId: string): Promise<LoanDetail | undefined> {
      const row = await loans.visibleLoan(borrowerId, loanId);
      if (!row) return undefined;
      const { instalments, overdue } = await schedules.of(row.id);
      const documents = await loans.documentsOf(row.id);
      return { ...toSummary(row, overdue), documents: documents.map(toDocument), instalments };
    },
  };
}

export type BorrowerLoans = ReturnType<typeof borrowerLoans>;
