import { CHECKOUT_LOAN_STATUSES, type DocumentLoan, type DocumentSummary } from '@customer-core/contracts';
import { DocumentStateBadge, type DocumentTone } from '../../loans/document-state-badge';
import { formatInstant } from '../../loans/loan-format';

const inCheckout = (loan: DocumentLoan) =>
  (CHECKOUT_LOAN_STATUSES as readonly string[]).includes(loan.status);

/**
 * Where a document stands, in the borrower's words: what is left to do, or when it was done. A loan
 * past its checkout (past due, paid off, closed) asks for nothing more: what was not done here is said
 * so, "online": such a loan (one brought over from the lender's books, say) may well have been signed on paper.
 */
export function documentStateOf(
  document: DocumentSummary,
  loan: DocumentLoan,
): { tone: DocumentTone; label: string } {
  if (document.state === 'signed')
    return {
      tone: 'signed',
      label: document.signedAt ? `Signed ${formatInstant(document.signedAt)}` : 'Signed',
    };
  if (document.state === 'reviewed' && !document.requiresSignature)
    return {
      tone: 'reviewed',
      label: document.reviewedAt ? `Reviewed ${formatInstant(document.reviewedAt)}` : 'Reviewed',
    };
  if (!inCheckout(loan))
    return {
      tone: 'not-done',
      label: document.requiresSignature ? 'Not signed online' : 'Not reviewed online',
    };
  return document.requiresSignature
    ? { tone: 'to-sign', label: 'To sign' }
    : { tone: 'to-review', label: 'To review' };
}

export function DocumentBadge({ document, loan }: { document: DocumentSummary; loan: DocumentLoan }) {
  return <DocumentStateBadge state={document.state} {...documentStateOf(document, loan)} />;
}
