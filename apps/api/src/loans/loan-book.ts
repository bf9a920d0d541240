import {
  contradictionsOf,
  type AddLoanRequest,
  type LoanSchedule,
  type LoanTerms,
  type OperatorLoan,
  type Overdue,
  type RecordInstalmentRequest,
  type UpdateLoanRequest,
  type LoanStatus,
} from '@customer-core/contracts';
import type { BorrowerRepository } from '../borrowers/borrower-repository.js';
import type { LoanQueries, LoanRepository } from './loan-repository.js';
import { describeSchedule, loanSchedules, today } from './loan-schedule.js';
import { loanTermsOf } from './loan-terms.js';
import { standardDocuments, type DocumentTerms, type Lender } from './standard-documents.js';

// The lender's book of loans, as operators keep it: add a loan for a borrower's e-mail address, change
// its terms. Every loan carries the standard closing documents. An ACTIVE one's are written from its
// terms until the borrower starts the checkout (from then on they stay as the borrower reads and signs
// them); a loan that comes in past due, paid off or closed gets them once, as of when it was lent.

export type AddLoanOutcome = { ok: true; loan: OperatorLoan } | { ok: false; problem: 'reference_taken' };
export type UpdateLoanOutcome =
  /** `before`: the terms as they were, for the audit trail. */
  | { ok: true; loan: OperatorLoan; before: LoanTerms }
  | { ok: false; problem: 'not_found' }
  | { ok: false; problem: 'contradictory_terms'; contradictions: string[] };

class ReferenceTaken extends Error {}
class Contradictory extends Error {
  constructor(readonly contradictions: string[]) {
    super('contradictory loan terms');
  }
}

/**
 * What the borrower would see amiss, the loan's schedule as of `day` included: said to the operator
 * with the loan, not refused, since the schedule is recorded after the terms.
 */
export function loanWarnings(terms: LoanTerms, overdue: Overdue | null, day: string): string[] {
  const warnings: string[] = [];
  if (terms.status === 'PAST DUE' && !overdue)
    warnings.push(
      'The borrower sees this loan as past due, but not what is owed or since when: record the missed instalments (record-instalment).',
    );
  if (terms.status === 'ACTIVE' && overdue)
    warnings.push(
      `An instalment due ${overdue.since} is unpaid, so the borrower sees a payment past due: set the status to PAST DUE, or record the payment.`,
    );
  if (
    (terms.status === 'ACTIVE' || terms.status === 'PAST DUE') &&
    terms.nextPayment &&
    terms.nextPayment.dueOn < day
  )
    warnings.push(
      `The next payment's date (${terms.nextPayment.dueOn}) has passed: give the next payment to come (a missed one shows as past due).`,
    );
  return warnings;
}

async function operatorLoan(loans: LoanQueries, loanId: string, day = today()): Promise<OperatorLoan> {
  const row = await loans.operatorLoan(loanId);
  const terms = loanTermsOf(row);
  const { overdue } = describeSchedule(await loans.instalmentsOf(loanId), day);
  return {
    id: row.id,
    reference: row.reference,
    borrowerEmail: row.email,
    ...terms,
    documents: Number(row.documents ?? 0),
    warnings: loanWarnings(terms, overdue, day),
  };
}

/**
 * The terms a loan's documents are written from: an open loan's own (active or past due); a paid-off or
 * closed one's as they stood when it was lent, the whole amount owed and no payment named, since its
 * balance today is not what the borrower agreed to.
 */
export function documentTermsOf(loan: DocumentTerms & { status: LoanStatus }): DocumentTerms {
  const { reference, product, amountCents, balanceCents, nextPayment } = loan;
  if (loan.status === 'ACTIVE' || loan.status === 'PAST DUE')
    return { reference, product, amountCents, balanceCents, nextPayment };
  return { reference, product, amountCents, balanceCents: amountCents, nextPayment: null };
}

/** Writes the loan's standard documents in place of any it has (only before its checkout starts). */
export async function writeStandardDocuments(
  loans: Pick<LoanQueries, 'replaceDocuments'>,
  loanId: string,
  loan: DocumentTerms & { status: LoanStatus },
  lender: Lender,
): Promise<void> {
  await loans.replaceDocuments(loanId, standardDocuments(documentTermsOf(loan), lender));
}

export function loanBook(repository: LoanRepository, borrowers: BorrowerRepository, lender: Lender) {
  const schedules = loanSchedules(repository);
  /**
   * An ACTIVE loan whose checkout has not started gets documents that match its current terms; any
   * other loan without documents (added past due, paid off or closed) gets them once, so the borrower
   * has every loan's documents whatever its status.
   */
  async function refreshDocuments(loans: LoanQueries, loanId: string): Promise<void> {
    const loan = await operatorLoan(loans, loanId);
    const rewrite = loan.status === 'ACTIVE' && !(await loans.checkoutStarted(loanId));
    if (rewrite || (await loans.documentCount(loanId)) === 0)
      await writeStandardDocuments(loans, loanId, loan, lender);
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

    /** Changes the terms given, unless the loan's terms would then contradict each other. */
    async update(reference: string, changes: UpdateLoanRequest): Promise<UpdateLoanOutcome> {
      try {
        return await repository.transaction(async (loans) => {
          const existing = await loans.idOfReference(reference);
          if (!existing) return { ok: false, problem: 'not_found' } as const;
          const before = loanTermsOf(await loans.operatorLoan(existing));
          const loanId = await loans.updateTerms(reference, changes);
          if (!loanId) return { ok: false, problem: 'not_found' } as const;
          const loan = await operatorLoan(loans, loanId);
          // Thrown, so that the change is rolled back: the terms as they would be, checked whole.
          const contradictions = contradictionsOf(loan);
          if (contradictions.length > 0) throw new Contradictory(contradictions);
          await refreshDocuments(loans, loanId);
          return { ok: true, loan: await operatorLoan(loans, loanId), before } as const;
        });
      } catch (error) {
        if (error instanceof Contradictory)
          return { ok: false, problem: 'contradictory_terms', contradictions: error.contradictions };
        throw error;
      }
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
