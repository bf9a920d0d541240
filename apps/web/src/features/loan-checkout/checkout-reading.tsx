import type { LoanDocument } from '@customer-core/contracts';
import { Trans } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { Banner } from '../../components/banner';
import { DocumentText } from '../../loans/document-text';
import type { ActionResult } from './use-loan-checkout';
import { DOCUMENTS_LANG } from '../../loans/document-language';

export const READING_TITLE_ID = 'checkout-reading-title';

interface CheckoutReadingProps {
  document: LoanDocument;
  /** Its place in the checkout: "Document 2 of 5". */
  position: { index: number; total: number };
  /** Reviewing is for the borrower to do here: false once complete, or for a loan not checked out. */
  actionable: boolean;
  review: () => Promise<ActionResult>;
  next: LoanDocument | undefined;
  onNext: () => void;
  onBack: () => void;
}

/**
 * One document to read, in the page's own flow (no box of its own that scrolls, its clauses as
 * headings): it is reviewed when its end comes into view, as the borrower has read it to there.
 */
export function CheckoutReading({
  document,
  position,
  actionable,
  review,
  next,
  onNext,
  onBack,
}: CheckoutReadingProps) {
  const end = useRef<HTMLParagraphElement>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [pending, setPending] = useState(false);
  // Reviewed in this reading: said even when that completed the checkout (no longer actionable).
  const [reviewedHere, setReviewedHere] = useState(false);
  const toReview = actionable && document.state === 'to_review';
  const { title } = document;
  const number = position.index + 1;
  const { total } = position;
  const nextTitle = next?.title;

  // Asked once per reading (the observer is made again on each render with a new `review`).
  const asked = useRef(false);
  useEffect(() => {
    const marker = end.current;
    if (!toReview || !marker) return;
    const observer = new IntersectionObserver((entries) => {
      if (asked.current || !entries.some((entry) => entry.isIntersecting)) return;
      asked.current = true;
      observer.disconnect();
      setPending(true);
      void review().then((result) => {
        setPending(false);
        if (result.ok) setReviewedHere(true);
        else setFailure(result.message);
      });
    });
    observer.observe(marker);
    return () => observer.disconnect();
  }, [toReview, review, attempt]);

  useEffect(() => {
    window.document.getElementById(READING_TITLE_ID)?.focus();
  }, [document.id]);

  return (
    <article className="checkout-reading" aria-labelledby={READING_TITLE_ID} data-testid="checkout-reading">
      <button type="button" className="checkout__back checkout-reading__back" onClick={onBack}>
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path d="M15 5 8 12l7 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <Trans>Back to your documents</Trans>
      </button>
      <header className="checkout-reading__header">
        <p className="checkout-reading__position">
          <Trans>
            Document {number} of {total}
          </Trans>
        </p>
        <h2 id={READING_TITLE_ID} tabIndex={-1} lang={DOCUMENTS_LANG}>
          {document.title}
        </h2>
        <p className="checkout-reading__description" lang={DOCUMENTS_LANG}>
          {document.description}
        </p>
      </header>
      <DocumentText body={document.body} level={3} />
      <p className="checkout-reading__end" ref={end} data-testid="document-end">
        <Trans>End of “{title}”</Trans>
      </p>
      <div className="checkout-reading__after" role="status">
        {pending && (
          <p>
            <Trans>Marking as reviewed…</Trans>
          </p>
        )}
        {document.state !== 'to_review' && (actionable || reviewedHere) && (
          <p className="checkout-document__done" data-testid="reading-reviewed">
            <Trans>You’ve read this document to the end: it’s reviewed.</Trans>
          </p>
        )}
      </div>
      {failure && (
        <Banner
          type="error"
          // It comes of itself as the end scrolls into view: the reader keeps their place.
          takeFocus={false}
          onDismiss={() => {
            setFailure(null);
            // Dismissed: asked again once the end is in view.
            asked.current = false;
            setAttempt((n) => n + 1);
          }}
          testId="document-error"
        >
          {failure}
        </Banner>
      )}
      <div className="checkout-reading__actions">
        {next && (
          <button type="button" className="button button--primary" onClick={onNext}>
            <Trans>Next document: {nextTitle}</Trans>
          </button>
        )}
        <button type="button" className="button button--secondary" onClick={onBack}>
          <Trans>Back to your documents</Trans>
        </button>
      </div>
    </article>
  );
}
