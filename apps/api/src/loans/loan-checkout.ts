import { createHash } from 'node:crypto';
import { CHECKOUT_LOAN_STATUSES, type LoanDetail, type LoanStatus } from '@customer-core/contracts';
import { borrowerLoans } from './borrower-loans.js';
import type { LoanQueries, LoanRepository } from './loan-repository.js';

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

/** Completes the checkout once every document is reviewed and every one that needs it signed. */
async function completeIfDone(loans: LoanQueries, loanId: string): Promise<boolean> {
  if ((await loans.openDocuments(loanId)) > 0) return false;
  return loans.completeCheckout(loanId);
}

export function loanCheckout(repository: LoanRepository) {
  /** Tells a loan the borrower cannot see from one whose checkout has not started. */
  async function withoutCheckout(
    loans: LoanQueries,
    borrowerId: string,
    loanId: string,
  ): Promise<CheckoutOutcome> {
    const loan = await loans.lockLoan(borrowerId, loanId);
    return { ok: false, problem: loan ? 'not_started' : 'loan_not_found' };
  }

  async function detail(
    loans: LoanQueries,
    borrowerId: string,
    loanId: string,
    completedNow = false,
  ): Promise<CheckoutOutcome> {
    const loan = await borrowerLoans(loans).one(borrowerId, loanId);
    if (!loan) throw new Error('the loan vanished within its own transaction');
    return { ok: true, loan, completedNow };
  }

  return {
    /** Starts the checkout; starting a started one changes nothing. */
    start(borrowerId: string, loanId: string): Promise<CheckoutOutcome> {
      return repository.transaction(async (loans) => {
        const loan = await loans.lockLoan(borrowerId, loanId);
        if (!loan) return { ok: false, problem: 'loan_not_found' };
        if (!allowsCheckout(loan.status))
          return { ok: false, problem: 'not_checkout_status', status: loan.status };
        if ((await loans.documentCount(loan.id)) === 0) return { ok: false, problem: 'no_documents' };
        await loans.startCheckout(loan.id);
        return detail(loans, borrowerId, loan.id);
      });
    },

    /** Marks a document reviewed; reviewing it again changes nothing. */
    review(borrowerId: string, loanId: string, documentId: string): Promise<CheckoutOutcome> {
      return repository.transaction(async (loans) => {
        const checkout = await loans.lockCheckout(borrowerId, loanId);
        if (!checkout) return withoutCheckout(loans, borrowerId, loanId);
        const document = await loans.documentToReview(checkout.id, documentId);
        if (!document) return { ok: false, problem: 'document_not_found' };
        if (document.reviewed_at) return detail(loans, borrowerId, checkout.id);
        if (!allowsCheckout(checkout.status))
          return { ok: false, problem: 'not_checkout_status', status: checkout.status };
        await loans.markReviewed(document.id);
        return detail(loans, borrowerId, checkout.id, await completeIfDone(loans, checkout.id));
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
      return repository.transaction(async (loans) => {
        const checkout = await loans.lockCheckout(borrowerId, loanId);
        if (!checkout) return withoutCheckout(loans, borrowerId, loanId);
        const document = await loans.documentToSign(checkout.id, documentId);
        if (!document) return { ok: false, problem: 'document_not_found' };
        if (!document.requires_signature) return { ok: false, problem: 'no_signature_needed' };
        if (document.signed_at) return { ok: false, problem: 'already_signed' };
        if (!document.reviewed_at) return { ok: false, problem: 'not_reviewed' };
        if (!allowsCheckout(checkout.status))
          return { ok: false, problem: 'not_checkout_status', status: checkout.status };
        await loans.sign(document.id, { ...signature, bodySha256: sha256Hex(document.body) });
        return detail(loans, borrowerId, checkout.id, await completeIfDone(loans, checkout.id));
      });
    },
  };
}

export type LoanCheckout = ReturnType<typeof loanCheckout>;
