import phonePreviewUrl from '../../assets/phone-preview.svg';
import { LenderLogo } from './lender-logo';

export function BrandPanel() {
  return (
    <header className="brand-panel">
      <LenderLogo />
      <div className="brand-panel__copy">
        <p className="brand-panel__headline">Funding that keeps your business moving.</p>
        <p className="brand-panel__lead">
          Your balance, payments and loan documents, in one secure place whenever you need them.
        </p>
      </div>
      <div className="brand-panel__preview">
        {/* Decorative and below the fold on small screens: lazy, and hidden there so it is never fetched. */}
        <img
          src={phonePreviewUrl}
          width={240}
          height={480}
          loading="lazy"
          decoding="async"
          alt="A phone showing the borrower dashboard with the loan balance, next payment and recent activity"
        />
      </div>
    </header>
  );
}
