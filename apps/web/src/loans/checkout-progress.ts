import type { LoanDocument } from '@customer-core/contracts';
import { i18n as portalI18n, type I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';

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

/** "2 of 5 documents done", in the screen's language (`i18n`: useLingui's). */
export function describeProgress({ done, total }: CheckoutProgress, i18n: I18n = portalI18n): string {
  return i18n._(msg`${done} of ${plural(total, { one: '# document done', other: '# documents done' })}`);
}
