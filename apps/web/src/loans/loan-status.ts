import { OPEN_LOAN_STATUSES, type LoanSummary, type VisibleLoanStatus } from '@customer-core/contracts';

/** The words for each status the borrower sees (the badge's colour says it again, never alone). */
export const LOAN_STATUS_LABELS: Record<VisibleLoanStatus, string> = {
  ACTIVE: 'Active',
  'PAST DUE': 'Past due',
  PAID: 'Paid off',
  'CLOSED LOST': 'Closed',
};

export function isOpenLoan(loan: Pick<LoanSummary, 'status'>): boolean {
  return (OPEN_LOAN_STATUSES as readonly string[]).includes(loan.status);
}

/** Only an active loan is checked out; one with every document done has nothing left to sign. */
export const hasDocumentsToSign = ({ status, checkout }: Pick<LoanSummary, 'status' | 'checkout'>) =>
  status === 'ACTIVE' && checkout.documentsDone < checkout.documents;
