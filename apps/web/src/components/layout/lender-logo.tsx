import { getLenderBranding } from '../../config/portal-config-meta';
import { LogoMark } from './logo-mark';

/** The lender's logo; it leaves for the lender's public website (spec section 1). */
export function LenderLogo() {
  const { name, websiteUrl } = getLenderBranding();
  const content = (
    <>
      <LogoMark />
      <span className="lender-logo__name">{name}</span>
    </>
  );
  if (!websiteUrl) return <span className="lender-logo">{content}</span>;
  return (
    <a className="lender-logo" href={websiteUrl} data-testid="lender-logo">
      {content}
      <span className="visually-hidden"> home</span>
    </a>
  );
}
