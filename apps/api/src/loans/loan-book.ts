import { sql, type Kysely, type Transaction, type Updateable } from 'kysely';
import type {
  AddLoanRequest,
  LoanSchedule,
  OperatorLoan,
  RecordInstalmentRequest,
  UpdateLoanRequest,
} from '@customer-core/contracts';
import type { BorrowerRepository } from '../borrowers/borrower-repository.js';
import type { ApiDatabase, LoanTable } from '../db/schema.js';
import { loanSchedules } from './loan-schedule.js';
import { LOAN_TERM_COLUMNS, loanTermsOf } from './loan-terms.js';
import { standardDocuments, type DocumentTerms, type Lender } from './standard-documents.js';

// The lender's book of loans, as operators keep it: add a loan for a borrower's e-mail address, change
// its terms. An ACTIVE loan carries the standard closing documents, written from its terms until the
// borrower starts the checkout (from then on they stay as the borrower reads and signs them).

export type AddLoanOutcome = { ok: true; loan: OperatorLoan } | { ok: false; problem: 'reference_taken' };

class ReferenceTaken extends Error {}

async function operatorLoan(trx: Kysely<ApiDatabase>, loanId: string): Promise<OperatorLoan> {
  const row = await trx
    .selectFrom('loan')
    .innerJoin('borrower', 'borrower.id', 'loan.borrower_id')
    .select((eb) => [
      ...LOAN_TERM_COLUMNS,
      'borrower.email',
      eb
        .selectFrom('loan_document')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('loan_document.loan_id', '=', 'loan.id')
        .as('documents'),
    ])
    .where('loan.id', '=', loanId)
    .executeTakeFirstOrThrow();
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
  trx: Kysely<ApiDatabase>,
  loanId: string,
  terms: DocumentTerms,
  lender: Lender,
): Promise<void> {
  await trx.deleteFrom('loan_document').where('loan_id', '=', loanId).execute();
  await trx
    .insertInto('loan_document')
    .values(
      standardDocuments(terms, lender).map((doc, position) => ({
        loan_id: loanId,
        position,
        title: doc.title,
        description: doc.description,
        body: doc.body,
        requires_signature: doc.requiresSignature,
      })),
    )
    .execute();
}

const nextPaymentColumns = (nextPayment: AddLoanRequest['nextPayment']) => ({
  next_payment_due: nextPayment?.dueOn ?? null,
  next_payment_cents: nextPayment?.amountCents ?? null,
});

export function loanBook(db: Kysely<ApiDatabase>, borrowers: BorrowerRepository, lender: Lender) {
  const schedules = loanSchedules(db);
  /** An ACTIVE loan whose checkout has not started gets documents that match its current terms. */
  async function refreshDocuments(trx: Transaction<ApiDatabase>, loanId: string): Promise<void> {
    const loan = await operatorLoan(trx, loanId);
    if (loan.status !== 'ACTIVE') return;
    const started = await trx
      .selectFrom('loan_checkout')
      .select('loan_id')
      .where('loan_id', '=', loanId)
      .executeTakeFirst();
    if (!started) await writeStandardDocuments(trx, loanId, loan, lender);
  }

  return {
    /** Adds a loan for the borrower with this e-mail address, creating the borrower if there is none. */
    async add(request: AddLoanRequest): Promise<AddLoanOutcome> {
      try {
        const loan = await db.transaction().execute(async (trx) => {
          const borrower = await borrowers.ensureByEmail(
            { email: request.borrowerEmail, firstName: null, lastName: null },
            trx,
          );
          const inserted = await trx
            .insertInto('loan')
            .values({
              borrower_id: borrower.id,
              reference: request.reference,
              product: request.product,
              amount_cents: request.amountCents,
              balance_cents: request.balanceCents,
              status: request.status,
              ...nextPaymentColumns(request.nextPayment),
            })
            .onConflict((oc) => oc.column('reference').doNothing())
            .returning('id')
            .executeTakeFirst();
          // Thrown, so that a borrower created just now for this loan is rolled back with it.
          if (!inserted) throw new ReferenceTaken();
          await refreshDocuments(trx, inserted.id);
          return operatorLoan(trx, inserted.id);
        });
        return { ok: true, loan };
      } catch (error) {
        if (error instanceof ReferenceTaken) return { ok: false, problem: 'reference_taken' };
        throw error;
      }
    },

    /** Changes the terms given; undefined when no loan has this reference. */
    async update(reference: string, changes: UpdateLoanRequest): Promise<OperatorLoan | undefined> {
      return db.transaction().execute(async (trx) => {
        const set: Updateable<LoanTable> = { updated_at: new Date() };
        if (changes.product !== undefined) set.product = changes.product;
        if (changes.amountCents !== undefined) set.amount_cents = changes.amountCents;
        if (changes.balanceCents !== undefined) set.balance_cents = changes.balanceCents;
        if (changes.status !== undefined) set.status = changes.status;
        if (changes.nextPayment !== undefined) Object.assign(set, nextPaymentColumns(changes.nextPayment));
        const updated = await trx
          .updateTable('loan')
          .set(set)
          .where('reference', '=', reference)
          .returning('id')
          .executeTakeFirst();
        if (!updated) return undefined;
        await refreshDocuments(trx, updated.id);
        return operatorLoan(trx, updated.id);
      });
    },

    /** Records an instalment of the loan's schedule; undefined when no loan has this reference. */
    async recordInstalment(
      reference: string,
      instalment: RecordInstalmentRequest & { paidOn: string | null },
    ): Promise<LoanSchedule | undefined> {
      const loan = await db
        .selectFrom('loan')
        .select('id')
        .where('reference', '=', reference)
        .executeTakeFirst();
      if (!loan) return undefined;
      await schedules.record(loan.id, instalment);
      const { instalments } = await schedules.of(loan.id);
      return { reference, instalments };
    },
  };
}

export type LoanBook = ReturnType<typeof loanBook>;
