import type { EsignConsent } from '@customer-core/contracts';
import { EsignConsentCopyButton } from '../../loans/esign-consent-copy';
import { formatInstant } from '../../loans/loan-format';

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
      <EsignConsentCopyButton consent={consent} className="button button--secondary esign-consent__copy" />
    </section>
  );
}
