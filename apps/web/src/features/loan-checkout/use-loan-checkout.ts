import {
  CHECKOUT_LOAN_STATUSES,
  type LoanDetail,
  type LoanStatus,
  type SignDocumentRequest,
} from '@customer-core/contracts';
import { useCallback } from 'react';
import { useLoad } from '../../lib/use-load';
import {
  getLoan,
  reviewDocument,
  signDocument,
  startCheckout,
  type LoanOutcome,
} from '../../loans/loans-api';

export type CheckoutState =
  | { kind: 'not-found' }
  | { kind: 'failed'; message: string }
  /** `refused`: the API would not start the checkout (its message). */
  | { kind: 'ready'; loan: LoanDetail; refused: string | null };

/** What an action on a document came to, for the document's own view. */
export type ActionResult =
  | { ok: true; loan: LoanDetail }
  /** stepUp: the borrower must sign in again first (the message says so), then try again. */
  | { ok: false; message: string; stepUp?: true };

export const canCheckOut = (status: LoanStatus) =>
  (CHECKOUT_LOAN_STATUSES as readonly string[]).includes(status);

async function openCheckout(loanId: string, signal: AbortSignal): Promise<CheckoutState> {
  const loaded = await getLoan(loanId, signal);
  if (loaded.kind === 'not-found') return { kind: 'not-found' };
  if (loaded.kind !== 'loaded') return { kind: 'failed', message: loaded.message };
  const { loan } = loaded;
  // Opening the page starts the checkout; a loan that can't be checked out is only shown.
  if (!canCheckOut(loan.status) || loan.checkout.status !== 'not_started') {
    return { kind: 'ready', loan, refused: null };
  }
  const started = await startCheckout(loanId, signal);
  switch (started.kind) {
    case 'loaded':
      return { kind: 'ready', loan: started.loan, refused: null };
    case 'refused':
    case 'step-up':
      return { kind: 'ready', loan, refused: started.message };
    case 'not-found':
      return { kind: 'not-found' };
    case 'failed':
      return { kind: 'failed', message: started.message };
  }
}

const NOT_FOUND_NOW = 'This loan is no longer in your account. Go back to your account to see your loans.';

/** The loan's checkout: loaded (and started) on opening, then advanced document by document. */
export function useLoanCheckout(loanId: string) {
  const { state, setState, retry } = useLoad((signal) => openCheckout(loanId, signal), [loanId]);

  const apply = useCallback(
    (outcome: LoanOutcome): ActionResult => {
      switch (outcome.kind) {
        case 'loaded':
          setState({ kind: 'ready', loan: outcome.loan, refused: null });
          return { ok: true, loan: outcome.loan };
        case 'not-found':
          return { ok: false, message: NOT_FOUND_NOW };
        case 'step-up':
          return { ok: false, message: outcome.message, stepUp: true };
        case 'refused':
        case 'failed':
          return { ok: false, message: outcome.message };
      }
    },
    [setState],
  );

  const review = useCallback(
    async (documentId: string) => apply(await reviewDocument(loanId, documentId)),
    [apply, loanId],
  );
  const sign = useCallback(
    async (documentId: string, signature: SignDocumentRequest) =>
      apply(await signDocument(loanId, documentId, signature)),
    [apply, loanId],
  );
  return { state, retry, review, sign };
}
