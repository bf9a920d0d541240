import { routes } from '@customer-core/contracts';
import { Link } from 'react-router';
import { getLenderBranding } from '../../config/portal-config-meta';

export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <p data-testid="footer-notice">
        © {year} {getLenderBranding().name}. All rights reserved.
      </p>
      <nav aria-label="Footer">
        <Link to={routes.about.path}>About</Link>
      </nav>
    </footer>
  );
}
