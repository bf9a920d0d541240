import { Trans, useLingui } from '@lingui/react/macro';
import phonePreviewUrl from '../../assets/phone-preview.svg';
import phonePreviewSpanishUrl from '../../assets/phone-preview.es-US.svg';
import { LenderLogo } from './lender-logo';

export function BrandPanel() {
  const { t, i18n } = useLingui();
  // The phone's screen speaks the page's language too.
  const phonePreview = i18n.locale === 'es-US' ? phonePreviewSpanishUrl : phonePreviewUrl;
  return (
    <header className="brand-panel">
      <LenderLogo />
      <div className="brand-panel__copy">
        <p className="brand-panel__headline">
          <Trans>Funding that keeps your business moving.</Trans>
        </p>
        <p className="brand-panel__lead">
          <Trans>
            Your balance, payments and loan documents, in one secure place whenever you need them.
          </Trans>
        </p>
      </div>
      <div className="brand-panel__preview">
        {/* Decorative and below the fold on small screens: lazy, and hidden there so it is never fetched. */}
        <img
          src={phonePreview}
          width={240}
          height={480}
          loading="lazy"
          decoding="async"
          alt={t`A phone showing the borrower dashboard with the loan balance, next payment and recent activity`}
        />
      </div>
    </header>
  );
}
