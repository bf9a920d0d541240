import type { LoanDetail } from '@customer-core/contracts';
import { getLoan } from '../../loans/loans-api';
import { useLoad } from '../../lib/use-load';

export type LoanState =
  { kind: 'not-found' } | { kind: 'failed'; message: string } | { kind: 'loaded'; loan: LoanDetail };

async function loadLoan(loanId: string, signal: AbortSignal): Promise<LoanState> {
  const outcome = await getLoan(loanId, signal);
  return outcome.kind === 'loaded' || outcome.kind === 'not-found'
    ? outcome
    : { kind: 'failed', message: outcome.message };
}

/** One of the borrower's loans, loaded when the page opens; `retry` asks again after a failure. */
export const useLoan = (loanId: string) => useLoad((signal) => loadLoan(loanId, signal), [loanId]);
