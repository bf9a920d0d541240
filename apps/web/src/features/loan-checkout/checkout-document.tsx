import type { DocumentState, LoanDocument } from '@customer-core/contracts';
import { DocumentStateBadge, type DocumentTone } from '../../loans/document-state-badge';
import { formatInstant } from '../../loans/loan-format';

export const readButtonId = (documentId: string) => `document-${documentId}-read`;

const STATE_BADGES: Record<DocumentState, { tone: DocumentTone; label: string }> = {
  to_review: { tone: 'to-review', label: 'To review' },
  reviewed: { tone: 'reviewed', label: 'Reviewed' },
  signed: { tone: 'signed', label: 'Signed' },
};

interface CheckoutDocumentProps {
  document: LoanDocument;
  /** False once the checkout is complete, or for a loan that can't be checked out: read only. */
  actionable: boolean;
  onRead: () => void;
}

/** One document of the list: its state, what is left to do, and the way to its reading view. */
export function CheckoutDocument({ document, actionable, onRead }: CheckoutDocumentProps) {
  const titleId = `document-${document.id}-title`;
  const toRead = actionable && document.state === 'to_review';
  return (
    <article
      className="checkout-document"
      aria-labelledby={titleId}
      data-testid="checkout-document"
      data-state={document.state}
    >
      <header className="checkout-document__header">
        <div className="checkout-document__name">
          <h3 id={titleId}>{document.title}</h3>
          <p>{document.description}</p>
        </div>
        <DocumentStateBadge state={document.state} {...STATE_BADGES[document.state]} />
      </header>
      {actionable && document.requiresSignature && document.state !== 'signed' && (
        <p className="checkout-document__note">Needs your signature.</p>
      )}
      {document.state === 'signed' && document.signedAt && (
        <p className="checkout-document__done" data-testid="document-signature">
          Signed by {document.signatureName ?? 'you'} on {formatInstant(document.signedAt)}
        </p>
      )}
      {document.state === 'reviewed' && document.reviewedAt && (
        <p className="checkout-document__done">Reviewed on {formatInstant(document.reviewedAt)}</p>
      )}
      <button
        type="button"
        id={readButtonId(document.id)}
        className={`button ${toRead ? 'button--primary' : 'button--secondary'} checkout-document__read`}
        // Each document's button names its document: the visible words first (WCAG 2.5.3).
        aria-label={`${toRead ? 'Read document' : 'Read again'}: ${document.title}`}
        onClick={onRead}
      >
        {toRead ? 'Read document' : 'Read again'}
      </button>
    </article>
  );
}
