import { Trans } from '@lingui/react/macro';
import { useLingui } from '@lingui/react';

/**
 * The language the lender's documents are written in (their titles, descriptions and text: the API's
 * standard documents are in English). Marked on them, so that a page in another language still has
 * them read in their own; they are never translated, being what the borrower signs.
 */
export const DOCUMENTS_LANG = 'en';

/** Where the page's language is not the documents': says they stay as the lender wrote them. */
export function DocumentsLanguageNote() {
  const { i18n } = useLingui();
  if (i18n.locale.startsWith(DOCUMENTS_LANG)) return null;
  return (
    <p className="documents-language-note" data-testid="documents-language-note">
      <Trans>Your documents are in English, as your lender wrote them.</Trans>
    </p>
  );
}
