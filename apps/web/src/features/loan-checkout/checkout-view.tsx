import {
  routes,
  type EsignConsent,
  type LoanDetail,
  type SignDocumentsRequest,
  type VisibleLoanStatus,
} from '@customer-core/contracts';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { BackLink } from '../../components/signed-in-shell/back-link';
import { StatusIcon } from '../../components/status-icon';
import { SuccessBadge } from '../../components/success-badge';
import { checkoutProgress } from '../../loans/checkout-progress';
import { formatInstant, formatMoney } from '../../loans/loan-format';
import { LoanStrip } from '../../loans/loan-strip';
import { CheckoutDocument, readButtonId } from './checkout-document';
import { CheckoutProgressBar } from './checkout-progress-bar';
import { CheckoutReading } from './checkout-reading';
import { EsignConsentText } from './esign-consent';
import { SIGN_ALL_TITLE_ID, SignAllForm } from './sign-all-form';
import { canCheckOut, type ActionResult, type ConsentResult } from './use-loan-checkout';
import { DocumentsLanguageNote } from '../../loans/document-language';

interface CheckoutViewProps {
  loan: LoanDetail;
  /** The API's reason for not starting the checkout, if it refused. */
  refused: string | null;
  /** The consent to sign electronically (null: nothing to sign here). */
  consent: EsignConsent | null;
  review: (documentId: string) => Promise<ActionResult>;
  signAll: (signature: SignDocumentsRequest) => Promise<ActionResult>;
  giveConsent: (version: string) => Promise<ConsentResult>;
}

const COMPLETE_TITLE_ID = 'checkout-complete-title';
const SIGNED_ID = 'checkout-signed';

/** Why a loan that can't be checked out has nothing to sign, by its status. */
const NOTHING_TO_SIGN: Record<VisibleLoanStatus, MessageDescriptor> = {
  ACTIVE: msg`This loan is active: it has no documents to sign.`,
  'PAST DUE': msg`This loan is past due: it has no documents to sign.`,
  PAID: msg`This loan is paid off: it has no documents to sign.`,
  'CLOSED LOST': msg`This loan is closed: it has no documents to sign.`,
};

/**
 * The loan's checkout: the list of documents, one reading view at a time (a document is reviewed once
 * read to its end), then one signature for every document that needs it, with a summary.
 */
export function CheckoutView({ loan, refused, consent, review, signAll, giveConsent }: CheckoutViewProps) {
  const { t, i18n } = useLingui();
  const [reading, setReading] = useState<string | null>(null);
  // How many documents the last "Sign all" signed: said where the form was, until the checkout completes.
  const [signedCount, setSignedCount] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');
  // Where the focus goes once the view has changed under it.
  const [focusRequest, setFocusRequest] = useState<{ id: string } | null>(null);
  useEffect(() => {
    if (focusRequest) document.getElementById(focusRequest.id)?.focus();
  }, [focusRequest]);

  const completed = loan.checkout.completedAt !== null;
  const actionable = canCheckOut(loan.status) && !refused && !completed;
  const toSign = loan.documents.filter((d) => d.requiresSignature && d.state !== 'signed');
  const toRead = loan.documents.filter((d) => d.state === 'to_review');
  const toReadCount = toRead.length;
  const readyToSign =
    actionable && consent && toSign.length > 0 && toSign.every((d) => d.state === 'reviewed');

  // What is done is said on the page, where the borrower is looking (the signature's confirmation in
  // the form's place, "You're all set" once complete), not in a toast that goes away.
  const onReview = async (documentId: string) => {
    const result = await review(documentId);
    if (result.ok) {
      const title = loan.documents.find((d) => d.id === documentId)?.title ?? t`The document`;
      const completedNow = result.loan.checkout.completedAt && !loan.checkout.completedAt;
      setAnnouncement(
        completedNow
          ? t`${title}: reviewed. Every document of this loan is reviewed and signed.`
          : t`${title}: reviewed.`,
      );
    }
    return result;
  };

  const onSignAll = async (signature: SignDocumentsRequest) => {
    const result = await signAll(signature);
    if (result.ok) {
      setSignedCount(signature.documentIds.length);
      setFocusRequest({ id: result.loan.checkout.completedAt ? COMPLETE_TITLE_ID : SIGNED_ID });
    }
    return result;
  };

  const readingIndex = loan.documents.findIndex((d) => d.id === reading);
  const readingDocument = loan.documents[readingIndex];
  const reference = loan.reference;
  const amount = formatMoney(loan.amountCents, i18n.locale);
  const completedOn = loan.checkout.completedAt && formatInstant(loan.checkout.completedAt, i18n.locale);
  const closeReading = (documentId: string) => {
    setReading(null);
    // Back at the list: on the signature once every document is read, else on the document left.
    setFocusRequest({
      id:
        actionable && toRead.length === 0 && toSign.length > 0 ? SIGN_ALL_TITLE_ID : readButtonId(documentId),
    });
  };

  return (
    <section
      className="checkout"
      aria-labelledby="checkout-title"
      data-testid="loan-checkout"
      data-layout="wide"
    >
      <PageTitle title={readingDocument ? readingDocument.title : t`Loan documents`} />
      <BackLink to={routes.dashboard.path} label={t`Back to your account`} />
      <header className="checkout__header">
        <h1 id="checkout-title">
          {actionable ? (
            <Trans>Review and sign your documents</Trans>
          ) : completed ? (
            <Trans>Your signed documents</Trans>
          ) : (
            <Trans>Your loan documents</Trans>
          )}
        </h1>
        <LoanStrip
          product={loan.product}
          status={loan.status}
          testId="checkout-loan"
          detail={
            <Trans>
              Loan {reference} · {amount}
            </Trans>
          }
        />
        <DocumentsLanguageNote />
      </header>

      {readingDocument ? (
        <CheckoutReading
          key={readingDocument.id}
          document={readingDocument}
          position={{ index: readingIndex, total: loan.documents.length }}
          actionable={actionable}
          review={() => onReview(readingDocument.id)}
          next={loan.documents[readingIndex + 1]}
          onNext={() => setReading(loan.documents[readingIndex + 1]?.id ?? null)}
          onBack={() => closeReading(readingDocument.id)}
        />
      ) : (
        <>
          {completed && (
            <div className="checkout-complete" data-testid="checkout-complete">
              <SuccessBadge />
              <div className="checkout-complete__text">
                <h2 id={COMPLETE_TITLE_ID} tabIndex={-1}>
                  <Trans>You’re all set</Trans>
                </h2>
                <p>
                  <Trans>
                    Every document of this loan is reviewed and signed. There is nothing more to do here.
                  </Trans>
                </p>
                {completedOn && (
                  <p className="checkout-complete__when">
                    <Trans>Completed {completedOn}</Trans>
                  </p>
                )}
              </div>
              <Link className="button button--primary" to={routes.dashboard.path}>
                <Trans>Back to your account</Trans>
              </Link>
              {consent?.givenAt && (
                <div className="checkout-complete__consent">
                  <EsignConsentText consent={consent} />
                </div>
              )}
            </div>
          )}

          {!completed && !actionable && (
            <div className="checkout-unavailable" data-testid="checkout-unavailable">
              <p>{refused ?? i18n._(NOTHING_TO_SIGN[loan.status])}</p>
            </div>
          )}

          {actionable && loan.documents.length === 0 && (
            <p className="checkout-unavailable" data-testid="checkout-no-documents">
              <Trans>There are no documents to sign for this loan.</Trans>
            </p>
          )}

          {loan.documents.length > 0 && (
            <section className="checkout__documents" aria-labelledby="checkout-documents-title">
              <div className="checkout__documents-header">
                <h2 id="checkout-documents-title">
                  {completed ? <Trans>Documents you signed</Trans> : <Trans>Your documents</Trans>}
                </h2>
                {actionable && <CheckoutProgressBar {...checkoutProgress(loan.documents)} />}
              </div>
              {actionable && (
                <p className="checkout__instruction" data-testid="checkout-instruction">
                  {toRead.length > 0 ? (
                    <Trans>
                      Read each document to the end: it’s marked as reviewed when you get there. Then you sign
                      them all at once.
                    </Trans>
                  ) : toSign.length > 0 ? (
                    <Trans>You’ve read every document. Sign them below.</Trans>
                  ) : (
                    <Trans>You’ve read every document.</Trans>
                  )}
                </p>
              )}
              {completed && (
                <p className="checkout__instruction">
                  <Trans>
                    <Link to={routes.documents.path}>See all your documents</Link>, read them in full and
                    download each signed one as a PDF.
                  </Trans>
                </p>
              )}
              <ol className="checkout__list">
                {loan.documents.map((document) => (
                  <li key={document.id}>
                    <CheckoutDocument
                      document={document}
                      actionable={actionable}
                      onRead={() => setReading(document.id)}
                    />
                  </li>
                ))}
              </ol>
            </section>
          )}

          {actionable && toSign.length > 0 && !readyToSign && (
            <section className="sign-form" aria-labelledby="sign-waiting-title" data-testid="sign-waiting">
              <h2 id="sign-waiting-title">
                <Trans>Sign your documents</Trans>
              </h2>
              <p>
                <Trans>
                  Read every document to the end first:{' '}
                  <Plural value={toReadCount} one="# document is" other="# documents are" /> left to read.
                </Trans>
              </p>
            </section>
          )}
          {readyToSign && (
            <SignAllForm documents={toSign} consent={consent} giveConsent={giveConsent} signAll={onSignAll} />
          )}
          {signedCount !== null && !completed && (
            <div className="checkout-signed" id={SIGNED_ID} tabIndex={-1} data-testid="checkout-signed">
              <StatusIcon tone="success" />
              <p>
                <Trans>
                  <strong>
                    <Plural value={signedCount} one="Document signed." other="Documents signed." />
                  </strong>{' '}
                  You signed <Plural value={signedCount} one="# document" other="# documents" />.
                </Trans>
                {toReadCount > 0 && (
                  <>
                    {' '}
                    <Plural
                      value={toReadCount}
                      one="Read the document left to finish."
                      other="Read the # documents left to finish."
                    />
                  </>
                )}
              </p>
            </div>
          )}
        </>
      )}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </section>
  );
}
