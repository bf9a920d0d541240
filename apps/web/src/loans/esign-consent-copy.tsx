import type { EsignConsent } from '@customer-core/contracts';
import { formatInstant } from './loan-format';

/** The consent as a text file the borrower keeps: its words, its version and when they agreed. */
function downloadEsignConsentCopy(consent: EsignConsent): void {
  const agreed = consent.givenAt
    ? `You agreed on ${formatInstant(consent.givenAt)}.`
    : 'You have not agreed yet.';
  const text = `${consent.title}\n\n${consent.text}\n\n${agreed}\nVersion of this text: ${consent.version}\n`;
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
  return (
    <button
      type="button"
      className={className}
      onClick={() => downloadEsignConsentCopy(consent)}
      aria-label={`Download a copy: ${consent.title}`}
    >
      Download a copy
    </button>
  );
}
