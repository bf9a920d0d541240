import type {
  AddLoanRequest,
  LoanSchedule,
  OperatorLoan,
  RecordInstalmentRequest,
  UpdateLoanRequest,
} from '@customer-core/contracts';
import type { BorrowerRepository } from '../borrowers/borrower-repository.js';
import type { LoanQueries, LoanRepository } from './loan-repository.js';
import { loanSchedules } from './loan-schedule.js';
import { loanTermsOf } from './loan-terms.js';
import { standardDocuments, type DocumentTerms, type Lender } from './standard-documents.js';

// The lender's book of loans, as operators keep it: add a loan for a borrower's e-mail address, change
// its terms. An ACTIVE loan carries the standard closing documents, written from its terms until the
// borrower starts the checkout (from then on they stay as the borrower reads and signs them).

export type AddLoanOutcome = { ok: true; loan: OperatorLoan } | { ok: false; problem: 'reference_taken' };

class ReferenceTaken extends Error {}

async function operatorLoan(loans: LoanQueries, loanId: string): Promise<OperatorLoan> {
  const row = await loans.operatorLoan(loanId);
  return {
    id: row.id,
    reference: row.reference,
    borrowerEmail: row.email,
    ...loanTermsOf(row),
    documents: Number(row.documents ?? 0),
  };
}

/** Writes the loan's standard documents in place of any it has (only before its checkout starts). */
export async function writeStandardDocuments(
  loans: Pick<LoanQueries, 'replaceDocuments'>,
  loanId: string,
  terms: DocumentTerms,
  lender: Lender,
): Promise<void> {
  await loans.replaceDocuments(loanId, standardDocuments(terms, lender));
}

export function loanBook(repository: LoanRepository, borrowers: BorrowerRepository, lender: Lender) {
  const schedules = loanSchedules(repository);
  /** An ACTIVE loan whose checkout has not started gets documents that match its current terms. */
  async function refreshDocuments(loans: LoanQueries, loanId: string): Promise<void> {
    const loan = await operatorLoan(loans, loanId);
    if (loan.status !== 'ACTIVE') return;
    if (!(await loans.checkoutStarted(loanId))) await writeStandardDocuments(loans, loanId, loan, lender);
  }

  return {
    /** Adds a loan for the borrower with this e-mail address, creating the borrower if there is none. */
    async add(request: AddLoanRequest): Promise<AddLoanOutcome> {
      try {
        const loan = await repository.transaction(async (loans, trx) => {
          const borrower = await borrowers.ensureByEmail(
            { email: request.borrowerEmail, firstName: null, lastName: null },
            trx,
          );
          const loanId = await loans.insert(borrower.id, request);
          // Thrown, so that a borrower created just now for this loan is rolled back with it.
          if (!loanId) throw new ReferenceTaken();
          await refreshDocuments(loans, loanId);
          return operatorLoan(loans, loanId);
        });
        return { ok: true, loan };
      } catch (error) {
        if (error instanceof ReferenceTaken) return { ok: false, problem: 'reference_taken' };
        throw error;
      }
    },

    /** Changes the terms given; undefined when no loan has this reference. */
    async update(reference: string, changes: UpdateLoanRequest): Promise<OperatorLoan | undefined> {
      return repository.transaction(async (loans) => {
        const loanId = await loans.updateTerms(reference, changes);
        if (!loanId) return undefined;
        await refreshDocuments(loans, loanId);
        return operatorLoan(loans, loanId);
      });
    },

    /** Records an instalment of the loan's schedule; undefined when no loan has this reference. */
    async recordInstalment(
      reference: string,
      instalment: RecordInstalmentRequest & { paidOn: string | null },
    ): Promise<LoanSchedule | undefined> {
      const loanId = await repository.idOfReference(reference);
      if (!loanId) return undefined;
      await schedules.record(loanId, instalment);
      const { instalments } = await schedules.of(loanId);
      return { reference, instalments };
    },
  };
}

export type LoanBook = ReturnType<typeof loanBook>;
