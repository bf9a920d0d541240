import type { LoanDetail } from '@customer-core/contracts';
import { useCallback, useEffect, useState } from 'react';
import { getLoan } from '../../loans/loans-api';

export type LoanState =
  | { kind: 'loading' }
  | { kind: 'not-found' }
  | { kind: 'failed'; message: string }
  | { kind: 'loaded'; loan: LoanDetail };

/** One of the borrower's loans, loaded when the page opens; `retry` asks again after a failure. */
export function useLoan(loanId: string) {
  const [state, setState] = useState<LoanState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    void getLoan(loanId, controller.signal).then((outcome) => {
      if (controller.signal.aborted) return;
      if (outcome.kind === 'loaded' || outcome.kind === 'not-found') setState(outcome);
      else setState({ kind: 'failed', message: outcome.message });
    });
    return () => controller.abort();
  }, [loanId, attempt]);
  const retry = useCallback(() => {
    setState({ kind: 'loading' });
    setAttempt((n) => n + 1);
  }, []);
  return { state, retry };
}
