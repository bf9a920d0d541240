import type { DocumentSummary } from '@customer-core/contracts';
import { DocumentStateBadge, type DocumentTone } from '../../loans/document-state-badge';
import { formatInstant } from '../../loans/loan-format';

/** Where a document stands, in the borrower's words: what is left to do, or when it was done. */
export function documentStateOf(document: DocumentSummary): { tone: DocumentTone; label: string } {
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

export function DocumentBadge({ document }: { document: DocumentSummary }) {
  return <DocumentStateBadge state={document.state} {...documentStateOf(document)} />;
}
