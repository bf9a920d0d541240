import type { LoanDocument } from '@customer-core/contracts';

/** A document is done once reviewed, or signed when it needs a signature. */
export function isDocumentDone(document: Pick<LoanDocument, 'state' | 'requiresSignature'>): boolean {
  return document.requiresSignature ? document.state === 'signed' : document.state !== 'to_review';
}

export interface CheckoutProgress {
  done: number;
  total: number;
}

export function checkoutProgress(
  documents: ReadonlyArray<Pick<LoanDocument, 'state' | 'requiresSignature'>>,
) {
  return {
    done: documents.filter(isDocumentDone).length,
    total: documents.length,
  } satisfies CheckoutProgress;
}

/** "2 of 5 documents done". */
export function describeProgress({ done, total }: CheckoutProgress): string {
  return `${done} of ${total} ${total === 1 ? 'document' : 'documents'} done`;
}
