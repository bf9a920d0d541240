import { useState } from 'react';
import { Spinner } from '../../components/spinner';
import { downloadSignedPdf } from './documents-api';

/** Downloads a signed document's PDF; says so in place if it fails. */
export function DownloadPdfButton({ documentId, title }: { documentId: string; title: string }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setFailure(null);
    const result = await downloadSignedPdf(documentId);
    setBusy(false);
    if (!result.ok) setFailure(result.message);
  };
  return (
    <span className="download-pdf">
      <button
        type="button"
        className="button button--secondary"
        onClick={() => void download()}
        disabled={busy}
        aria-label={`Download signed PDF: ${title}`}
        data-testid="download-pdf"
      >
        {busy && <Spinner />}
        Download signed PDF
      </button>
      {failure && (
        <span className="download-pdf__failure" role="alert">
          {failure}
        </span>
      )}
    </span>
  );
}
