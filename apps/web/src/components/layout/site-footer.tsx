import { routes, type Locale } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useLocation } from 'react-router';
import { getLenderBranding } from '../../config/portal-config-meta';
import { LanguageSwitcher } from '../language-switcher';

interface SiteFooterProps {
  /** On the public screens: the way back to sign-in from About or an error. */
  signInLink?: boolean;
  /** Where a signed-in borrower's choice of language is kept too (their profile). */
  onLanguageChosen?: (locale: Locale) => unknown;
}

/** The footer: the notice, the way to the other language, About (and sign-in, on the public screens). */
export function SiteFooter({ signInLink = false, onLanguageChosen }: SiteFooterProps) {
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
          <li>
            <LanguageSwitcher {...(onLanguageChosen ? { onChosen: onLanguageChosen } : {})} />
          </li>
        </ul>
      </nav>
    </footer>
  );
}
