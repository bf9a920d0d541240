import type { DocumentSummary } from '@customer-core/contracts';
import { formatInstant } from '../../loans/loan-format';

/** Where a document stands, in the borrower's words: what is left to do, or when it was done. */
export function documentStateOf(document: DocumentSummary): { tone: string; label: string } {
  if (document.state === 'signed')
    return {
      tone: 'signed',
      label: document.signedAt ? `Signed ${formatInstant(document.signedAt)}` : 'Signed',
    };
  if (document.state === 'reviewed')
    return document.requiresSignature
      ? { tone: 'to-sign', label: 'To sign' }
      : {
          tone: 'reviewed',
          label: document.reviewedAt ? `Reviewed ${formatInstant(document.reviewedAt)}` : 'Reviewed',
        };
  return document.requiresSignature
    ? { tone: 'to-sign', label: 'To sign' }
    : { tone: 'to-review', label: 'To review' };
}

export function DocumentStateBadge({ document }: { document: DocumentSummary }) {
  const { tone, label } = documentStateOf(document);
  return (
    <span className={`doc-state doc-state--${tone}`} data-testid="document-state" data-state={document.state}>
      {label}
    </span>
  );
}
