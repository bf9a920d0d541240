import {
  routes,
  type LoanDetail,
  type LoanDocument,
  type SignDocumentRequest,
} from '@customer-core/contracts';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { StatusIcon } from '../../components/status-icon';
import { useToasts } from '../../lib/toasts/toasts-context';
import { checkoutProgress, isDocumentDone } from '../../loans/checkout-progress';
import { formatInstant, formatMoney } from '../../loans/loan-format';
import { LOAN_STATUS_LABELS } from '../../loans/loan-status';
import { LoanStatusBadge } from '../../loans/loan-status-badge';
import { CheckoutDocument, documentTitleId, signatureNameId } from './checkout-document';
import { CheckoutProgressBar } from './checkout-progress-bar';
import { canCheckOut, type ActionResult } from './use-loan-checkout';

interface CheckoutViewProps {
  loan: LoanDetail;
  /** The API's reason for not starting the checkout, if it refused. */
  refused: string | null;
  review: (documentId: string) => Promise<ActionResult>;
  sign: (documentId: string, signature: SignDocumentRequest) => Promise<ActionResult>;
}

const COMPLETE_TITLE_ID = 'checkout-complete-title';

export function CheckoutView({ loan, refused, review, sign }: CheckoutViewProps) {
  const { addToast } = useToasts();
  const [announcement, setAnnouncement] = useState('');
  // Where the focus goes once a document's view has changed under it (its button is gone).
  const [focusRequest, setFocusRequest] = useState<{ id: string } | null>(null);
  useEffect(() => {
    if (focusRequest) document.getElementById(focusRequest.id)?.focus();
  }, [focusRequest]);

  const completed = loan.checkout.completedAt !== null;
  const actionable = canCheckOut(loan.status) && !refused && !completed;

  const afterAction = (document: LoanDocument, updated: LoanDetail) => {
    if (updated.checkout.completedAt && !loan.checkout.completedAt) {
      addToast({
        key: `checkout-complete-${loan.id}`,
        status: 'success',
        title: 'Checkout complete',
        message: 'Every document of your loan is reviewed and signed.',
      });
      setFocusRequest({ id: COMPLETE_TITLE_ID });
      return;
    }
    const now = updated.documents.find((d) => d.id === document.id);
    // Reviewed, and a signature to come: straight to the signature.
    if (now && !isDocumentDone(now)) return setFocusRequest({ id: signatureNameId(document.id) });
    const next = updated.documents.find((d) => !isDocumentDone(d));
    setFocusRequest({ id: documentTitleId((next ?? document).id) });
  };

  const onReview = async (document: LoanDocument) => {
    const result = await review(document.id);
    if (result.ok) {
      setAnnouncement(`${document.title}: marked as reviewed.`);
      afterAction(document, result.loan);
    }
    return result;
  };

  const onSign = async (document: LoanDocument, signature: SignDocumentRequest) => {
    const result = await sign(document.id, signature);
    if (result.ok) {
      addToast({
        key: `signed-${document.id}`,
        status: 'success',
        title: 'Document signed',
        message: `You signed \u201c${document.title}\u201d.`,
      });
      afterAction(document, result.loan);
    }
    return result;
  };

  return (
    <section
      className="checkout"
      aria-labelledby="checkout-title"
      data-testid="loan-checkout"
      data-layout="wide"
    >
      <PageTitle title="Loan documents" />
      <Link className="checkout__back" to={routes.dashboard.path}>
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path d="M15 5 8 12l7 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        Back to your account
      </Link>
      <header className="checkout__header">
        <h1 id="checkout-title">
          {actionable
            ? 'Review and sign your documents'
            : completed
              ? 'Your signed documents'
              : 'Your loan documents'}
        </h1>
        <div className="checkout__loan" data-testid="checkout-loan">
          <p>
            <strong>{loan.product}</strong>
            <span className="checkout__loan-detail">
              Loan {loan.reference} &middot; {formatMoney(loan.amountCents)}
            </span>
          </p>
          <LoanStatusBadge status={loan.status} />
        </div>
      </header>

      {completed && (
        <div className="checkout-complete" data-testid="checkout-complete">
          <span className="checkout-complete__badge">
            <StatusIcon tone="success" />
          </span>
          <div className="checkout-complete__text">
            <h2 id={COMPLETE_TITLE_ID} tabIndex={-1}>
              You&rsquo;re all set
            </h2>
            <p>Every document of this loan is reviewed and signed. There is nothing more to do here.</p>
            {loan.checkout.completedAt && (
              <p className="checkout-complete__when">Completed {formatInstant(loan.checkout.completedAt)}</p>
            )}
          </div>
          <Link className="button button--primary" to={routes.dashboard.path}>
            Back to your account
          </Link>
        </div>
      )}

      {!completed && !actionable && (
        <div className="checkout-unavailable" data-testid="checkout-unavailable">
          <p>
            {refused ??
              `This loan is ${LOAN_STATUS_LABELS[loan.status].toLowerCase()}: it has no documents to sign.`}
          </p>
        </div>
      )}

      {actionable && loan.documents.length === 0 && (
        <p className="checkout-unavailable" data-testid="checkout-no-documents">
          There are no documents to sign for this loan.
        </p>
      )}

      {loan.documents.length > 0 && (
        <section className="checkout__documents" aria-labelledby="checkout-documents-title">
          <div className="checkout__documents-header">
            <h2 id="checkout-documents-title">{completed ? 'Documents you signed' : 'Your documents'}</h2>
            {actionable && <CheckoutProgressBar {...checkoutProgress(loan.documents)} />}
          </div>
          {actionable && (
            <p className="checkout__instruction" data-testid="checkout-instruction">
              Read each document, then mark it as reviewed. Sign those that need your signature by typing your
              full name.
            </p>
          )}
          {completed && (
            <p className="checkout__instruction">
              <Link to={routes.documents.path}>See all your documents</Link>, read them in full and download
              each signed one as a PDF.
            </p>
          )}
          <ol className="checkout__list">
            {loan.documents.map((document) => (
              <li key={document.id}>
                <CheckoutDocument
                  document={document}
                  actionable={actionable}
                  onReview={() => onReview(document)}
                  onSign={(signature) => onSign(document, signature)}
                />
              </li>
            ))}
          </ol>
        </section>
      )}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </section>
  );
}
