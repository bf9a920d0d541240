import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Spinner } from '../../components/spinner';
import { downloadDocumentPdf } from './documents-api';

/**
 * Downloads a document's PDF: a signed one's with its certificate, or one that needs no signature;
 * says so in place if it fails.
 */
export function DownloadPdfButton({
  documentId,
  title,
  signed,
}: {
  documentId: string;
  title: string;
  signed: boolean;
}) {
  const { t } = useLingui();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setFailure(null);
    const result = await downloadDocumentPdf(documentId);
    setBusy(false);
    if (!result.ok) setFailure(result.message);
  };
  const label = signed ? t`Download signed PDF` : t`Download PDF`;
  return (
    <span className="download-pdf">
      <button
        type="button"
        className="button button--secondary"
        onClick={() => void download()}
        disabled={busy}
        aria-label={signed ? t`Download signed PDF: ${title}` : t`Download PDF: ${title}`}
        data-testid="download-pdf"
      >
        {busy && <Spinner />}
        {label}
      </button>
      {failure && (
        <span className="download-pdf__failure" role="alert">
          {failure}
        </span>
      )}
    </span>
  );
}
