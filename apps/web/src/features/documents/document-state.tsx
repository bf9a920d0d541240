import { CHECKOUT_LOAN_STATUSES, type DocumentLoan, type DocumentSummary } from '@customer-core/contracts';
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { DocumentStateBadge, type DocumentTone } from '../../loans/document-state-badge';
import { formatInstant } from '../../loans/loan-format';

const inCheckout = (loan: DocumentLoan) =>
  (CHECKOUT_LOAN_STATUSES as readonly string[]).includes(loan.status);

/**
 * Where a document stands, in the borrower's words: what is left to do, or when it was done. A loan
 * past its checkout (past due, paid off, closed) asks for nothing more: what was not done here is said
 * so, "online": such a loan (one brought over from the lender's books, say) may well have been signed on paper.
 * `i18n`: the screen's language (useLingui's).
 */
export function documentStateOf(
  document: DocumentSummary,
  loan: DocumentLoan,
  i18n: I18n,
): { tone: DocumentTone; label: string } {
  if (document.state === 'signed') {
    const signedAt = document.signedAt && formatInstant(document.signedAt, i18n.locale);
    return { tone: 'signed', label: signedAt ? i18n._(msg`Signed ${signedAt}`) : i18n._(msg`Signed`) };
  }
  if (document.state === 'reviewed' && !document.requiresSignature) {
    const reviewedAt = document.reviewedAt && formatInstant(document.reviewedAt, i18n.locale);
    return {
      tone: 'reviewed',
      label: reviewedAt ? i18n._(msg`Reviewed ${reviewedAt}`) : i18n._(msg`Reviewed`),
    };
  }
  if (!inCheckout(loan))
    return {
      tone: 'not-done',
      label: document.requiresSignature ? i18n._(msg`Not signed online`) : i18n._(msg`Not reviewed online`),
    };
  return document.requiresSignature
    ? { tone: 'to-sign', label: i18n._(msg`To sign`) }
    : { tone: 'to-review', label: i18n._(msg`To review`) };
}

export function DocumentBadge({ document, loan }: { document: DocumentSummary; loan: DocumentLoan }) {
  const { i18n } = useLingui();
  return <DocumentStateBadge state={document.state} {...documentStateOf(document, loan, i18n)} />;
}
