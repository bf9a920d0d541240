import type { EsignConsent } from '@customer-core/contracts';
import { formatInstant } from '../../loans/loan-format';

/** The consent as a text file the borrower keeps: its words, its version and when they agreed. */
function downloadCopy(consent: EsignConsent) {
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

/** The consent to sign electronically: its text until given, then when; a copy to keep either way. */
export function EsignConsentText({ consent }: { consent: EsignConsent }) {
  return (
    <section className="esign-consent" aria-labelledby="esign-consent-title" data-testid="esign-consent">
      <h3 id="esign-consent-title">{consent.title}</h3>
      {consent.givenAt ? (
        <p data-testid="esign-consent-given">
          You agreed to sign electronically on {formatInstant(consent.givenAt)}.
        </p>
      ) : (
        consent.text.split('\n\n').map((paragraph, index) => <p key={index}>{paragraph}</p>)
      )}
      <button
        type="button"
        className="button button--secondary esign-consent__copy"
        onClick={() => downloadCopy(consent)}
        aria-label={`Download a copy: ${consent.title}`}
      >
        Download a copy
      </button>
    </section>
  );
}
