import { routes } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { Loading } from '../../components/loading';
import { SignedInPage } from '../../components/signed-in-shell/signed-in-page';
import { EsignConsentCopyButton } from '../../loans/esign-consent-copy';
import { formatInstant } from '../../loans/loan-format';
import { getEsignConsent } from '../../loans/loans-api';
import { LoanStatusBadge } from '../../loans/loan-status-badge';
import { useLoad } from '../../lib/use-load';
import { getDocuments } from './documents-api';
import { DocumentBadge } from './document-state';
import { DownloadPdfButton } from './download-pdf-button';
import './documents.css';
import { DOCUMENTS_LANG, DocumentsLanguageNote } from '../../loans/document-language';

/** /ui/dashboard/documents: every document of every loan, grouped by loan, with where each stands. */
export function DocumentsScreen() {
  const { t, i18n } = useLingui();
  const { state, retry } = useLoad(getDocuments, []);
  // The consent the signatures were made under: a copy to keep, once given (nothing said otherwise,
  // even if it cannot be loaded: the documents are what this page is for).
  const { state: consentState } = useLoad(getEsignConsent, []);
  const consent =
    consentState.kind === 'loaded' && consentState.consent.givenAt ? consentState.consent : null;
  const agreedOn = consent?.givenAt ? formatInstant(consent.givenAt, i18n.locale) : null;

  return (
    <SignedInPage
      title={t`Your documents`}
      intro={t`The documents of each of your loans. Open one to read or print it. Download a PDF to keep of each one you’ve signed and each one that needs no signature.`}
      titleId="documents-page-title"
      testId="documents-page"
    >
      <DocumentsLanguageNote />
      {consent && agreedOn && (
        <p className="documents__consent" data-testid="documents-esign-consent">
          <Trans>You agreed to sign electronically on {agreedOn}.</Trans>{' '}
          <EsignConsentCopyButton consent={consent} className="documents__consent-copy" />
        </p>
      )}
      {state.kind === 'loading' && <Loading />}
      {state.kind === 'failed' && (
        <p className="documents__failure" role="alert" data-testid="documents-error">
          {state.message}{' '}
          <button type="button" className="button button--secondary" onClick={retry}>
            <Trans>Try again</Trans>
          </button>
        </p>
      )}
      {state.kind === 'loaded' && state.list.loans.length === 0 && (
        <p className="documents__empty" data-testid="documents-empty">
          <Trans>You have no loan documents yet. When a loan has documents to sign, they appear here.</Trans>
        </p>
      )}
      {state.kind === 'loaded' &&
        state.list.loans.map(({ loan, documents }) => {
          const toSign =
            loan.status === 'ACTIVE' && documents.some((d) => d.requiresSignature && d.state !== 'signed');
          const reference = loan.reference;
          return (
            <section
              key={loan.id}
              className="documents__loan"
              aria-labelledby={`documents-loan-${loan.id}`}
              data-testid="documents-loan"
              data-reference={loan.reference}
            >
              <header className="documents__loan-header">
                <div>
                  <h2 id={`documents-loan-${loan.id}`}>{loan.product}</h2>
                  <p className="documents__loan-reference">
                    <Trans>Loan {reference}</Trans>
                  </p>
                </div>
                <LoanStatusBadge status={loan.status} />
              </header>
              <ul className="documents__list">
                {documents.map((document) => (
                  <li
                    key={document.id}
                    className="documents__item"
                    data-testid="document-row"
                    data-state={document.state}
                  >
                    <div className="documents__item-text">
                      <Link
                        lang={DOCUMENTS_LANG}
                        className="documents__item-title"
                        to={routes.document.href({ documentId: document.id })}
                      >
                        {document.title}
                      </Link>
                      <p lang={DOCUMENTS_LANG}>{document.description}</p>
                    </div>
                    <div className="documents__item-side">
                      <DocumentBadge document={document} loan={loan} />
                      {document.hasPdf && (
                        <DownloadPdfButton
                          documentId={document.id}
                          title={document.title}
                          signed={document.state === 'signed'}
                        />
                      )}
                    </div>
                  </li>
                ))}
              </ul>
              {toSign && (
                <p className="documents__loan-action">
                  <Link className="button button--primary" to={routes.loanCheckout.href({ loanId: loan.id })}>
                    <Trans>Review and sign documents</Trans>
                  </Link>
                </p>
              )}
            </section>
          );
        })}
    </SignedInPage>
  );
}
