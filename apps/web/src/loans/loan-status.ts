import { isOpenLoanStatus, type LoanSummary, type VisibleLoanStatus } from '@customer-core/contracts';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/**
 * The words for each status the borrower sees (the badge's colour says it again, never alone), put in
 * the screen's language where shown (useLingui's `i18n._`).
 */
export const LOAN_STATUS_LABELS: Record<VisibleLoanStatus, MessageDescriptor> = {
  ACTIVE: msg`Active`,
  'PAST DUE': msg`Past due`,
  PAID: msg`Paid off`,
  'CLOSED LOST': msg`Closed`,
};

export function isOpenLoan(loan: Pick<LoanSummary, 'status'>): boolean {
  return isOpenLoanStatus(loan.status);
}

/** Only an active loan is checked out; one with every document done has nothing left to sign. */
export const hasDocumentsToSign = ({ status, checkout }: Pick<LoanSummary, 'status' | 'checkout'>) =>
  status === 'ACTIVE' && checkout.documentsDone < checkout.documents;
