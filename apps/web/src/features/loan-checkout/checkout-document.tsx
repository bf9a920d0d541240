import type { DocumentState, LoanDocument } from '@customer-core/contracts';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { DocumentStateBadge, type DocumentTone } from '../../loans/document-state-badge';
import { formatInstant } from '../../loans/loan-format';
import { DOCUMENTS_LANG } from '../../loans/document-language';

export const readButtonId = (documentId: string) => `document-${documentId}-read`;

const STATE_BADGES: Record<DocumentState, { tone: DocumentTone; label: MessageDescriptor }> = {
  to_review: { tone: 'to-review', label: msg`To review` },
  reviewed: { tone: 'reviewed', label: msg`Reviewed` },
  signed: { tone: 'signed', label: msg`Signed` },
};

interface CheckoutDocumentProps {
  document: LoanDocument;
  /** False once the checkout is complete, or for a loan that can't be checked out: read only. */
  actionable: boolean;
  onRead: () => void;
}

/** One document of the list: its state, what is left to do, and the way to its reading view. */
export function CheckoutDocument({ document, actionable, onRead }: CheckoutDocumentProps) {
  const { t, i18n } = useLingui();
  const titleId = `document-${document.id}-title`;
  const toRead = actionable && document.state === 'to_review';
  const badge = STATE_BADGES[document.state];
  const title = document.title;
  // "Signed by you" when the signature's name is not on record.
  const signer = document.signatureName;
  const signedAt = document.signedAt && formatInstant(document.signedAt, i18n.locale);
  const reviewedAt = document.reviewedAt && formatInstant(document.reviewedAt, i18n.locale);
  return (
    <article
      className="checkout-document"
      aria-labelledby={titleId}
      data-testid="checkout-document"
      data-state={document.state}
    >
      <header className="checkout-document__header">
        <div className="checkout-document__name">
          <h3 id={titleId} lang={DOCUMENTS_LANG}>
            {document.title}
          </h3>
          <p lang={DOCUMENTS_LANG}>{document.description}</p>
        </div>
        <DocumentStateBadge state={document.state} tone={badge.tone} label={i18n._(badge.label)} />
      </header>
      {actionable && document.requiresSignature && document.state !== 'signed' && (
        <p className="checkout-document__note">
          <Trans>Needs your signature.</Trans>
        </p>
      )}
      {document.state === 'signed' && signedAt && (
        <p className="checkout-document__done" data-testid="document-signature">
          {signer === null ? (
            <Trans>Signed by you on {signedAt}</Trans>
          ) : (
            <Trans>
              Signed by {signer} on {signedAt}
            </Trans>
          )}
        </p>
      )}
      {document.state === 'reviewed' && reviewedAt && (
        <p className="checkout-document__done">
          <Trans>Reviewed on {reviewedAt}</Trans>
        </p>
      )}
      <button
        type="button"
        id={readButtonId(document.id)}
        className={`button ${toRead ? 'button--primary' : 'button--secondary'} checkout-document__read`}
        // Each document's button names its document: the visible words first (WCAG 2.5.3).
        aria-label={toRead ? t`Read document: ${title}` : t`Read again: ${title}`}
        onClick={onRead}
      >
        {toRead ? <Trans>Read document</Trans> : <Trans>Read again</Trans>}
      </button>
    </article>
  );
}
