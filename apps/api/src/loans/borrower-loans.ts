import { sql, type Kysely } from 'kysely';
import type {
  CheckoutStatus,
  DocumentState,
  LoanDetail,
  LoanDocument,
  LoanSummary,
} from '@customer-core/contracts';
import type { ApiDatabase } from '../db/schema.js';
import { loanSchedules } from './loan-schedule.js';
import { LOAN_TERM_COLUMNS, loanTermsOf } from './loan-terms.js';

// Loans as their borrower sees them. Every query names the borrower, so a loan id alone never
// reaches another borrower's loan, and HIDDEN loans never leave the database.

/** A timestamp as the API writes it (pg and PGlite both give Date; a string is parsed to be sure). */
export const isoOf = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

export const checkoutStatusOf = (startedAt: unknown, completedAt: unknown): CheckoutStatus =>
  completedAt ? 'completed' : startedAt ? 'in_progress' : 'not_started';

/** Open loans (ACTIVE, PAST DUE) first, then closed ones; newest first within each. */
const OPEN_FIRST = sql<number>`case when loan.status in ('ACTIVE', 'PAST DUE') then 0 else 1 end`;

function visibleLoans(db: Kysely<ApiDatabase>, borrowerId: string) {
  return db
    .selectFrom('loan')
    .leftJoin('loan_checkout', 'loan_checkout.loan_id', 'loan.id')
    .where('loan.borrower_id', '=', borrowerId)
    .where('loan.status', '<>', 'HIDDEN')
    .select([
      ...LOAN_TERM_COLUMNS,
      'loan_checkout.started_at',
      'loan_checkout.completed_at',
      sql<number>`(select count(*)::int from loan_document d where d.loan_id = loan.id)`.as('documents'),
      // Done: reviewed, and signed where a signature is needed.
      sql<number>`(
        select count(*)::int from loan_document d
        where d.loan_id = loan.id and d.reviewed_at is not null and (not d.requires_signature or d.signed_at is not null)
      )`.as('documents_done'),
    ]);
}

type LoanRow = Awaited<ReturnType<ReturnType<typeof visibleLoans>['executeTakeFirstOrThrow']>>;

function toSummary(row: LoanRow): LoanSummary {
  const terms = loanTermsOf(row);
  if (terms.status === 'HIDDEN') throw new Error('a HIDDEN loan reached the borrower view');
  return {
    id: row.id,
    reference: row.reference,
    ...terms,
    status: terms.status, // narrowed above: not HIDDEN
    checkout: {
      status: checkoutStatusOf(row.started_at, row.completed_at),
      startedAt: isoOf(row.started_at),
      completedAt: isoOf(row.completed_at),
      documents: Number(row.documents),
      documentsDone: Number(row.documents_done),
    },
  };
}

async function documentsOf(db: Kysely<ApiDatabase>, loanId: string): Promise<LoanDocument[]> {
  const rows = await db
    .selectFrom('loan_document')
    .select([
      'id',
      'title',
      'description',
      'body',
      'requires_signature',
      'reviewed_at',
      'signed_at',
      'signature_name',
    ])
    .where('loan_id', '=', loanId)
    .orderBy('position')
    .execute();
  return rows.map((row) => {
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
  });
}

/** The borrower's loans, HIDDEN ones left out, open ones first. */
export async function loansOfBorrower(db: Kysely<ApiDatabase>, borrowerId: string): Promise<LoanSummary[]> {
  const rows = await visibleLoans(db, borrowerId)
    .orderBy(OPEN_FIRST)
    .orderBy('loan.created_at', 'desc')
    .orderBy('loan.reference')
    .execute();
  return rows.map(toSummary);
}

/** One of the borrower's loans with its documents; undefined if it is not theirs, HIDDEN or unknown. */
export async function loanOfBorrower(
  db: Kysely<ApiDatabase>,
  borrowerId: string,
  loanId: string,
): Promise<LoanDetail | undefined> {
  const row = await visibleLoans(db, borrowerId).where('loan.id', '=', loanId).executeTakeFirst();
  if (!row) return undefined;
  const schedule = await loanSchedules(db).of(row.id);
  return { ...toSummary(row), documents: await documentsOf(db, row.id), ...schedule };
}

/** A borrower's own view of their loans: what the borrower API reads. */
export function borrowerLoans(db: Kysely<ApiDatabase>) {
  return {
    list: (borrowerId: string) => loansOfBorrower(db, borrowerId),
    one: (borrowerId: string, loanId: string) => loanOfBorrower(db, borrowerId, loanId),
  };
}

export type BorrowerLoans = ReturnType<typeof borrowerLoans>;
