import type { LoanSummary } from '@customer-core/contracts';
import { useCallback, useEffect, useState } from 'react';
import { checkoutProgress, isDocumentDone, type CheckoutProgress } from '../loans/checkout-progress';
import { getLoan, getLoans } from '../loans/loans-api';

export type LoansState =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | {
      kind: 'loaded';
      loans: LoanSummary[];
      /** Loans with documents still to review or sign, and how far along (null: not known). */
      toSign: ReadonlyMap<string, CheckoutProgress | null>;
    };

/** Only an active loan is checked out; one whose checkout is complete has nothing left to sign. */
const mayHaveDocumentsToSign = (loan: LoanSummary) => loan.status === 'ACTIVE' && !loan.checkout.completedAt;

async function loadLoans(signal: AbortSignal): Promise<LoansState> {
  const outcome = await getLoans(signal);
  if (outcome.kind === 'failed') return outcome;
  // The list says nothing of documents: each loan that may have some is asked (usually one).
  const entries = await Promise.all(
    outcome.loans.filter(mayHaveDocumentsToSign).map(async (loan) => {
      const detail = await getLoan(loan.id, signal);
      if (detail.kind !== 'loaded') return [loan.id, null] as const;
      const left = detail.loan.documents.some((document) => !isDocumentDone(document));
      return left ? ([loan.id, checkoutProgress(detail.loan.documents)] as const) : null;
    }),
  );
  return {
    kind: 'loaded',
    loans: outcome.loans,
    toSign: new Map(entries.filter((entry) => entry !== null)),
  };
}

/** The signed-in borrower's loans for the home page, with a way to try again after a failure. */
export function useLoans(): { state: LoansState; retry: () => void } {
  const [state, setState] = useState<LoansState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    void loadLoans(controller.signal).then((loaded) => {
      if (!controller.signal.aborted) setState(loaded);
    });
    return () => controller.abort();
  }, [attempt]);
  const retry = useCallback(() => {
    setState({ kind: 'loading' });
    setAttempt((count) => count + 1);
  }, []);
  return { state, retry };
}
