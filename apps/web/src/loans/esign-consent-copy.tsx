import type { EsignConsent } from '@customer-core/contracts';
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { formatInstant } from './loan-format';

/**
 * The consent as a text file the borrower keeps: its words (as the lender wrote them), its version and
 * when they agreed, said in the portal's language.
 */
function downloadEsignConsentCopy(consent: EsignConsent, i18n: I18n): void {
  const { version, givenAt } = consent;
  const agreedOn = givenAt && formatInstant(givenAt, i18n.locale);
  const agreed = agreedOn ? i18n._(msg`You agreed on ${agreedOn}.`) : i18n._(msg`You have not agreed yet.`);
  const versionLine = i18n._(msg`Version of this text: ${version}`);
  const text = `${consent.title}\n\n${consent.text}\n\n${agreed}\n${versionLine}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'consent-to-sign-electronically.txt';
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download; the address can go once the browser has taken it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** "Download a copy" of the consent, named to screen readers by the consent's title. */
export function EsignConsentCopyButton({ consent, className }: { consent: EsignConsent; className: string }) {
  const { t, i18n } = useLingui();
  const { title } = consent;
  return (
    <button
      type="button"
      className={className}
      onClick={() => downloadEsignConsentCopy(consent, i18n)}
      aria-label={t`Download a copy: ${title}`}
    >
      <Trans>Download a copy</Trans>
    </button>
  );
}
