import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { CHECKOUT_LOAN_STATUSES, type LoanDetail, type LoanStatus } from '@customer-core/contracts';
import type { ApiDatabase } from '../db/schema.js';
import { loanOfBorrower } from './borrower-loans.js';

// A loan's document checkout: the borrower starts it, reviews every document and signs those that
// need a signature; the last step completes it. Each step runs in one transaction that holds the
// checkout row, so concurrent steps of one checkout happen one after another and exactly one of them
// sees every document done.

export type CheckoutProblem =
  | 'loan_not_found'
  | 'document_not_found'
  /** The loan's status does not allow a checkout (e.g. PAID). */
  | 'not_checkout_status'
  | 'no_documents'
  | 'not_started'
  | 'not_reviewed'
  | 'no_signature_needed'
  | 'already_signed';

export type CheckoutOutcome =
  /** completedNow: this step completed the checkout. */
  | { ok: true; loan: LoanDetail; completedNow: boolean }
  | { ok: false; problem: CheckoutProblem; status?: LoanStatus };

/** The fingerprint of a document's text: SHA-256 of its UTF-8 bytes, in hex. */
export const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const allowsCheckout = (status: LoanStatus) =>
  (CHECKOUT_LOAN_STATUSES as readonly LoanStatus[]).includes(status);

/** The borrower's own (not HIDDEN) loan, locked against a concurrent change of its terms or documents. */
function lockLoan(trx: Transaction<ApiDatabase>, borrowerId: string, loanId: string) {
  return trx
    .selectFrom('loan')
    .select(['id', 'status'])
    .where('id', '=', loanId)
    .where('borrower_id', '=', borrowerId)
    .where('status', '<>', 'HIDDEN')
    .forUpdate()
    .executeTakeFirst();
}

/** The started checkout of the borrower's loan, locked; undefined if there is none (or no such loan). */
function lockCheckout(trx: Transaction<ApiDatabase>, borrowerId: string, loanId: string) {
  return trx
    .selectFrom('loan_checkout')
    .innerJoin('loan', 'loan.id', 'loan_checkout.loan_id')
    .select(['loan.id', 'loan.status', 'loan_checkout.completed_at'])
    .where('loan.id', '=', loanId)
    .where('loan.borrower_id', '=', borrowerId)
    .where('loan.status', '<>', 'HIDDEN')
    .forUpdate('loan_checkout')
    .executeTakeFirst();
}

/** Completes the checkout once every document is reviewed and every one that needs it signed. */
async function completeIfDone(trx: Transaction<ApiDatabase>, loanId: string): Promise<boolean> {
  const { open } = await trx
    .selectFrom('loan_document')
    .select(sql<number>`count(*)::int`.as('open'))
    .where('loan_id', '=', loanId)
    .where((eb) =>
      eb.or([
        eb('reviewed_at', 'is', null),
        eb.and([eb('requires_signature', '=', true), eb('signed_at', 'is', null)]),
      ]),
    )
    .executeTakeFirstOrThrow();
  if (Number(open) > 0) return false;
  const completed = await trx
    .updateTable('loan_checkout')
    .set({ completed_at: sql<Date>`now()` })
    .where('loan_id', '=', loanId)
    .where('completed_at', 'is', null)
    .executeTakeFirst();
  return completed.numUpdatedRows === 1n;
}

export function loanCheckout(db: Kysely<ApiDatabase>) {
  /** Tells a loan the borrower cannot see from one whose checkout has not started. */
  async function withoutCheckout(
    trx: Transaction<ApiDatabase>,
    borrowerId: string,
    loanId: string,
  ): Promise<CheckoutOutcome> {
    const loan = await lockLoan(trx, borrowerId, loanId);
    return { ok: false, problem: loan ? 'not_started' : 'loan_not_found' };
  }

  async function detail(
    trx: Transaction<ApiDatabase>,
    borrowerId: string,
    loanId: string,
    completedNow = false,
  ): Promise<CheckoutOutcome> {
    const loan = await loanOfBorrower(trx, borrowerId, loanId);
    if (!loan) throw new Error('the loan vanished within its own transaction');
    return { ok: true, loan, completedNow };
  }

  return {
    /** Starts the checkout; starting a started one changes nothing. */
    start(borrowerId: string, loanId: string): Promise<CheckoutOutcome> {
      return db.transaction().execute(async (trx) => {
        const loan = await lockLoan(trx, borrowerId, loanId);
        if (!loan) return { ok: false, problem: 'loan_not_found' };
        if (!allowsCheckout(loan.status))
          return { ok: false, problem: 'not_checkout_status', status: loan.status };
        const { documents } = await trx
          .selectFrom('loan_document')
          .select(sql<number>`count(*)::int`.as('documents'))
          .where('loan_id', '=', loan.id)
          .executeTakeFirstOrThrow();
        if (Number(documents) === 0) return { ok: false, problem: 'no_documents' };
        await trx
          .insertInto('loan_checkout')
          .values({ loan_id: loan.id })
          .onConflict((oc) => oc.column('loan_id').doNothing())
          .execute();
        return detail(trx, borrowerId, loan.id);
      });
    },

    /** Marks a document reviewed; reviewing it again changes nothing. */
    review(borrowerId: string, loanId: string, documentId: string): Promise<CheckoutOutcome> {
      return db.transaction().execute(async (trx) => {
        const checkout = await lockCheckout(trx, borrowerId, loanId);
        if (!checkout) return withoutCheckout(trx, borrowerId, loanId);
        const document = await trx
          .selectFrom('loan_document')
          .select(['id', 'reviewed_at'])
          .where('id', '=', documentId)
          .where('loan_id', '=', checkout.id)
          .executeTakeFirst();
        if (!document) return { ok: false, problem: 'document_not_found' };
        if (document.reviewed_at) return detail(trx, borrowerId, checkout.id);
        if (!allowsCheckout(checkout.status))
          return { ok: false, problem: 'not_checkout_status', status: checkout.status };
        await trx
          .updateTable('loan_document')
          .set({ reviewed_at: sql<Date>`now()` })
          .where('id', '=', document.id)
          .execute();
        return detail(trx, borrowerId, checkout.id, await completeIfDone(trx, checkout.id));
      });
    },

    /**
     * Signs a reviewed document that needs a signature, with the name the borrower typed; records
     * what its signature certificate states: the client address and the fingerprint of the text signed.
     */
    sign(
      borrowerId: string,
      loanId: string,
      documentId: string,
      signature: { name: string; clientAddress: string },
    ): Promise<CheckoutOutcome> {
      return db.transaction().execute(async (trx) => {
        const checkout = await lockCheckout(trx, borrowerId, loanId);
        if (!checkout) return withoutCheckout(trx, borrowerId, loanId);
        const document = await trx
          .selectFrom('loan_document')
          .select(['id', 'body', 'requires_signature', 'reviewed_at', 'signed_at'])
          .where('id', '=', documentId)
          .where('loan_id', '=', checkout.id)
          .executeTakeFirst();
        if (!document) return { ok: false, problem: 'document_not_found' };
        if (!document.requires_signature) return { ok: false, problem: 'no_signature_needed' };
        if (document.signed_at) return { ok: false, problem: 'already_signed' };
        if (!document.reviewed_at) return { ok: false, problem: 'not_reviewed' };
        if (!allowsCheckout(checkout.status))
          return { ok: false, problem: 'not_checkout_status', status: checkout.status };
        await trx
          .updateTable('loan_document')
          .set({
            signed_at: sql<Date>`now()`,
            signature_name: signature.name,
            signed_from: signature.clientAddress,
            signed_body_sha256: sha256Hex(document.body),
          })
          .where('id', '=', document.id)
          .execute();
        return detail(trx, borrowerId, checkout.id, await completeIfDone(trx, checkout.id));
      });
    },
  };
}

export type LoanCheckout = ReturnType<typeof loanCheckout>;
