import type { LoanSummary } from '@customer-core/contracts';
import { useCallback, useEffect, useState } from 'react';
import { getLoans } from '../../loans/loans-api';

export type LoansState =
  { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'loaded'; loans: LoanSummary[] };
/** The signed-in borrower's loans for the home page, with a way to try again after a failure. */
export function useLoans(): { state: LoansState; retry: () => void } {
  const [state, setState] = useState<LoansState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    void getLoans(controller.signal).then((loaded) => {
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
