import {
  routes,
  type DocumentState,
  type LoanDocument,
  type SignDocumentRequest,
} from '@customer-core/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../components/banner';
import { Spinner } from '../../components/spinner';
import { StepUpDialog } from '../../components/step-up/step-up-dialog';
import { DocumentStateBadge, type DocumentTone } from '../../loans/document-state-badge';
import { formatInstant } from '../../loans/loan-format';
import { SignDocumentForm } from './sign-document-form';
import type { ActionResult } from './use-loan-checkout';

export const documentTitleId = (documentId: string) => `document-${documentId}-title`;
export const signatureNameId = (documentId: string) => `document-${documentId}-signature-name`;

const STATE_BADGES: Record<DocumentState, { tone: DocumentTone; label: string }> = {
  to_review: { tone: 'to-review', label: 'To review' },
  reviewed: { tone: 'reviewed', label: 'Reviewed' },
  signed: { tone: 'signed', label: 'Signed' },
};

interface CheckoutDocumentProps {
  document: LoanDocument;
  /** False once the checkout is complete, or for a loan that can't be checked out: read only. */
  actionable: boolean;
  onReview: () => Promise<ActionResult>;
  onSign: (signature: SignDocumentRequest) => Promise<ActionResult>;
}

/** One document: its state, its text on demand, then "Mark as reviewed" and, if it needs one, a signature. */
export function CheckoutDocument({ document, actionable, onReview, onSign }: CheckoutDocumentProps) {
  const [open, setOpen] = useState(false);
  const [reviewing, setReviewing] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // A signature the API wants a fresh sign-in for: kept while the borrower confirms it's them.
  const [stepUp, setStepUp] = useState<{ signature: SignDocumentRequest; message: string } | null>(null);
  const titleId = documentTitleId(document.id);
  const bodyId = `document-${document.id}-body`;
  const toSign = actionable && document.requiresSignature && document.state === 'reviewed';

  const markReviewed = async () => {
    setFailure(null);
    setReviewing(true);
    const result = await onReview();
    setReviewing(false);
    // Read and reviewed: the text folds away, so the signature (or the next document) comes into view.
    if (result.ok) setOpen(false);
    else setFailure(result.message);
  };

  const sign = async (signature: SignDocumentRequest) => {
    setFailure(null);
    const result = await onSign(signature);
    if (result.ok) return;
    if (result.stepUp) setStepUp({ signature, message: result.message });
    else setFailure(result.message);
  };

  return (
    <article
      className="checkout-document"
      aria-labelledby={titleId}
      data-testid="checkout-document"
      data-state={document.state}
    >
      <header className="checkout-document__header">
        <div className="checkout-document__name">
          <h3 id={titleId} tabIndex={-1}>
            {document.title}
          </h3>
          <p>{document.description}</p>
        </div>
        <DocumentStateBadge state={document.state} {...STATE_BADGES[document.state]} />
      </header>
      {document.requiresSignature && document.state === 'to_review' && (
        <p className="checkout-document__note">Needs your signature once you have reviewed it.</p>
      )}

      <button
        type="button"
        className="checkout-document__toggle"
        aria-expanded={open}
        aria-controls={bodyId}
        // Each document's buttons name their document: the visible words first (WCAG 2.5.3).
        aria-label={`${open ? 'Hide' : 'Read'} document: ${document.title}`}
        onClick={() => setOpen((shown) => !shown)}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path d="m9 5 7 7-7 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        {open ? 'Hide document' : 'Read document'}
      </button>
      <Link
        className="checkout-document__reading-link"
        to={routes.document.href({ documentId: document.id })}
        aria-label={`Open in reading view: ${document.title}`}
      >
        Open in reading view
      </Link>
      <div
        id={bodyId}
        className="checkout-document__body"
        role="region"
        aria-label={`${document.title}, full text`}
        // Scrolls when long: reachable by keyboard to scroll it.
        tabIndex={0}
        hidden={!open}
        data-testid="document-body"
      >
        {document.body}
      </div>

      {failure && (
        <Banner type="error" onDismiss={() => setFailure(null)} testId="document-error">
          {failure}
        </Banner>
      )}

      {actionable && document.state === 'to_review' && open && (
        <div className="checkout-document__actions">
          <button
            type="button"
            className="button button--primary"
            onClick={() => void markReviewed()}
            disabled={reviewing}
            aria-label={`Mark as reviewed: ${document.title}`}
          >
            {reviewing && <Spinner />}
            Mark as reviewed
          </button>
        </div>
      )}

      {toSign && <SignDocumentForm document={document} nameId={signatureNameId(document.id)} onSign={sign} />}
      {stepUp && (
        <StepUpDialog
          message={stepUp.message}
          confirmLabel="Confirm and sign"
          factorMessage="One more step before you sign."
          onConfirmed={() => {
            setStepUp(null);
            // The same signature again, now with the new sign-in.
            void sign(stepUp.signature);
          }}
          onCancel={() => setStepUp(null)}
          returnFocusId={`${signatureNameId(document.id)}-sign`}
        />
      )}

      {document.state === 'signed' && document.signedAt && (
        <p className="checkout-document__done" data-testid="document-signature">
          Signed by {document.signatureName ?? 'you'} on {formatInstant(document.signedAt)}
        </p>
      )}
      {document.state === 'reviewed' && !document.requiresSignature && document.reviewedAt && (
        <p className="checkout-document__done">Reviewed on {formatInstant(document.reviewedAt)}</p>
      )}
    </article>
  );
}
