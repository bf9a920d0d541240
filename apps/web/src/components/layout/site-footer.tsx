import { routes } from '@customer-core/contracts';
import { Link, useLocation } from 'react-router';
import { getLenderBranding } from '../../config/portal-config-meta';

/** The footer; on the public screens (`signInLink`) also the way back to sign-in from About or an error. */
export function SiteFooter({ signInLink = false }: { signInLink?: boolean }) {
  const year = new Date().getFullYear();
  const onSignIn = useLocation().pathname === routes.signIn.path;
  return (
    <footer className="site-footer">
      <p data-testid="footer-notice">
        © {year} {getLenderBranding().name}. All rights reserved.
      </p>
      <nav aria-label="Footer">
        <ul className="site-footer__links">
          {signInLink && !onSignIn && (
            <li>
              <Link to={routes.signIn.path}>Sign in</Link>
            </li>
          )}
          <li>
            <Link to={routes.about.path}>About</Link>
          </li>
        </ul>
      </nav>
    </footer>
  );
}
