import { type BorrowerDocument, type DocumentList, documentEndpoints } from '@customer-core/contracts';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { describeFailure } from '../../lib/api-failure';
import { sessionRequest } from '../../lib/auth/session-request';
import { readRawAccessToken } from '../../lib/product-session';

// The borrower's documents (Bearer product token): the list, one document, a document's PDF.

export type DocumentsOutcome = { kind: 'loaded'; list: DocumentList } | { kind: 'failed'; message: string };
export type DocumentOutcome =
  | { kind: 'loaded'; document: BorrowerDocument }
  /** Not the borrower's document, or none at all: the same answer, so nothing leaks. */
  | { kind: 'not-found' }
  | { kind: 'failed'; message: string };

// The screens' own sentences for a failure, in the portal's language at the time it happened.
const LIST_FAILED = msg`We couldn’t load your documents just now. Please try again in a few minutes.`;
const DOCUMENT_FAILED = msg`We couldn’t load this document just now. Please try again in a few minutes.`;
const PDF_FAILED = msg`We couldn’t download the PDF just now. Please try again in a few minutes.`;

export async function getDocuments(signal?: AbortSignal): Promise<DocumentsOutcome> {
  const result = await sessionRequest(documentEndpoints.documents, { signal });
  if (result.isError)
    return { kind: 'failed', message: describeFailure(result, i18n._(LIST_FAILED)).message };
  return { kind: 'loaded', list: result.data };
}

export async function getDocument(documentId: string, signal?: AbortSignal): Promise<DocumentOutcome> {
  const result = await sessionRequest(documentEndpoints.document, { params: { documentId }, signal });
  if (result.isError) {
    if (result.status === 404 && !result.exceptionThrown) return { kind: 'not-found' };
    return { kind: 'failed', message: describeFailure(result, i18n._(DOCUMENT_FAILED)).message };
  }
  return { kind: 'loaded', document: result.data };
}

/**
 * Downloads the document's PDF (a signed one's with its certificate) under the server's file name; a
 * message for people if it fails.
 */
export async function downloadDocumentPdf(
  documentId: string,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const token = readRawAccessToken();
  try {
    const response = await fetch(documentEndpoints.documentPdf.href({ documentId }), {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      cache: 'no-store',
    });
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as { message?: string } | null;
      return {
        ok: false,
        message: response.status === 409 && body?.message ? body.message : i18n._(PDF_FAILED),
      };
    }
    const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = name ?? 'document.pdf';
    document.body.append(link);
    link.click();
    link.remove();
    // The click has started the download; the address can go once the browser has taken it.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    return { ok: true };
  } catch {
    return { ok: false, message: i18n._(PDF_FAILED) };
  }
}
