import type { EsignConsent } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { EsignConsentCopyButton } from '../../loans/esign-consent-copy';
import { formatInstant } from '../../loans/loan-format';

/** The consent to sign electronically: its text until given, then when; a copy to keep either way. */
export function EsignConsentText({ consent }: { consent: EsignConsent }) {
  const { i18n } = useLingui();
  const agreedOn = consent.givenAt && formatInstant(consent.givenAt, i18n.locale);
  return (
    <section className="esign-consent" aria-labelledby="esign-consent-title" data-testid="esign-consent">
      <h3 id="esign-consent-title">{consent.title}</h3>
      {agreedOn ? (
        <p data-testid="esign-consent-given">
          <Trans>You agreed to sign electronically on {agreedOn}.</Trans>
        </p>
      ) : (
        consent.text.split('\n\n').map((paragraph, index) => <p key={index}>{paragraph}</p>)
      )}
      <EsignConsentCopyButton consent={consent} className="button button--secondary esign-consent__copy" />
    </section>
  );
}
