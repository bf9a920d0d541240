import { routes } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useLocation } from 'react-router';
import { getLenderBranding } from '../../config/portal-config-meta';

/** The footer; on the public screens (`signInLink`) also the way back to sign-in from About or an error. */
export function SiteFooter({ signInLink = false }: { signInLink?: boolean }) {
  const { t } = useLingui();
  const year = new Date().getFullYear();
  const lender = getLenderBranding().name;
  const onSignIn = useLocation().pathname === routes.signIn.path;
  return (
    <footer className="site-footer">
      <p data-testid="footer-notice">
        <Trans>
          © {year} {lender}. All rights reserved.
        </Trans>
      </p>
      <nav aria-label={t`Footer`}>
        <ul className="site-footer__links">
          {signInLink && !onSignIn && (
            <li>
              <Link to={routes.signIn.path}>
                <Trans>Sign in</Trans>
              </Link>
            </li>
          )}
          <li>
            <Link to={routes.about.path}>
              <Trans>About</Trans>
            </Link>
          </li>
        </ul>
      </nav>
    </footer>
  );
}
