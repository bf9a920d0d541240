import { Link } from 'react-router';
import { getLenderBranding } from '../../config/portal-config-meta';
import { LogoMark } from './logo-mark';

/**
 * The lender's logo. On the public screens it leaves for the lender's public website (spec section 1);
 * in the signed-in area (`home` given) it leads to the borrower's home, so it never leaves the portal.
 */
export function LenderLogo({ home }: { home?: string }) {
  const { name, websiteUrl } = getLenderBranding();
  const content = (
    <>
      <LogoMark />
      <span className="lender-logo__name">{name}</span>
    </>
  );
  if (home) {
    return (
      <Link className="lender-logo" to={home} data-testid="lender-logo">
        {content}
        <span className="visually-hidden"> home</span>
      </Link>
    );
  }
  if (!websiteUrl) return <span className="lender-logo">{content}</span>;
  return (
    <a className="lender-logo" href={websiteUrl} data-testid="lender-logo">
      {content}
      <span className="visually-hidden"> home</span>
    </a>
  );
}
