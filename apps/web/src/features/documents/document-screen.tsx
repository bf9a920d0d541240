import { routes } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useParams } from 'react-router';
import { Loading } from '../../components/loading';
import { PageTitle } from '../../components/page-title';
import { BackLink } from '../../components/signed-in-shell/back-link';
import { DocumentText } from '../../loans/document-text';
import { formatInstant } from '../../loans/loan-format';
import { useLoad } from '../../lib/use-load';
import { getDocument } from './documents-api';
import { DocumentBadge } from './document-state';
import { DownloadPdfButton } from './download-pdf-button';
import './documents.css';
import { DOCUMENTS_LANG } from '../../loans/document-language';

/** /ui/dashboard/documents/:documentId: one document in a reading view, printable. */
export function DocumentScreen() {
  const { t, i18n } = useLingui();
  const { documentId = '' } = useParams();
  const { state } = useLoad((signal) => getDocument(documentId, signal), [documentId]);

  const back = <BackLink to={routes.documents.path} label={t`Back to your documents`} />;

  if (state.kind === 'loading') return <Loading />;
  if (state.kind !== 'loaded')
    return (
      <section className="reading" aria-labelledby="reading-title" data-testid="document-reading">
        <PageTitle title={t`Document not found`} />
        {back}
        <h1 id="reading-title">
          {state.kind === 'not-found' ? (
            <Trans>Document not found</Trans>
          ) : (
            <Trans>Document unavailable</Trans>
          )}
        </h1>
        <p className="documents__failure" role="alert" data-testid="document-error">
          {state.kind === 'not-found' ? (
            <Trans>You have no document with this address.</Trans>
          ) : (
            state.message
          )}
        </p>
      </section>
    );

  const { document } = state;
  const reference = document.loan.reference;
  return (
    <article className="reading" aria-labelledby="reading-title" data-testid="document-reading">
      <PageTitle title={document.title} />
      {back}
      <header className="reading__header">
        <p className="reading__loan">
          {document.loan.product} &middot; <Trans>Loan {reference}</Trans>
        </p>
        <h1 id="reading-title" lang={DOCUMENTS_LANG}>
          {document.title}
        </h1>
        <div className="reading__meta">
          <DocumentBadge document={document} loan={document.loan} />
          <div className="reading__actions">
            <button type="button" className="button button--secondary" onClick={() => window.print()}>
              <Trans>Print</Trans>
            </button>
            {document.hasPdf && (
              <DownloadPdfButton
                documentId={document.id}
                title={document.title}
                signed={document.state === 'signed'}
              />
            )}
            {/* Still to sign: the way to sign it, in the loan's checkout (where it is signed with the rest). */}
            {document.requiresSignature &&
              document.state !== 'signed' &&
              document.loan.status === 'ACTIVE' && (
                <Link
                  className="button button--primary"
                  to={routes.loanCheckout.href({ loanId: document.loan.id })}
                  data-testid="document-sign"
                >
                  <Trans>Review and sign documents</Trans>
                </Link>
              )}
          </div>
        </div>
      </header>
      <DocumentText body={document.body} />
      {document.state === 'signed' && document.signedAt && (
        <section
          className="reading__signature"
          aria-labelledby="reading-signature-title"
          data-testid="document-signature"
        >
          <h2 id="reading-signature-title">
            <Trans>Signature</Trans>
          </h2>
          <dl>
            <div>
              <dt>
                <Trans>Signed by</Trans>
              </dt>
              <dd>{document.signatureName}</dd>
            </div>
            {document.signer && (
              <div>
                <dt>
                  <Trans>Account</Trans>
                </dt>
                <dd data-testid="document-signer">
                  {document.signer.name}
                  {document.signer.email && `, ${document.signer.email}`}
                </dd>
              </div>
            )}
            <div>
              <dt>
                <Trans>Signed on</Trans>
              </dt>
              <dd>{formatInstant(document.signedAt, i18n.locale)}</dd>
            </div>
            {document.fingerprint && (
              <div>
                <dt>
                  <Trans>Document fingerprint (SHA-256)</Trans>
                </dt>
                <dd className="reading__fingerprint" data-testid="document-fingerprint">
                  {document.fingerprint}
                </dd>
              </div>
            )}
          </dl>
        </section>
      )}
    </article>
  );
}
