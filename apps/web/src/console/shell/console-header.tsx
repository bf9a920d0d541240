import { consoleRoutes } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { LogoMark } from '../../components/layout/logo-mark';
import { useConsoleSession, useStaff } from '../session/console-session-context';
import { CONSOLE_AREAS, ROLE_LABELS } from './console-areas';
import { useMay } from './use-may';

/**
 * The console's top bar: its name (to the borrowers' search), the areas the staff member's role opens,
 * who is signed in and as what, and the way out. On a phone the areas wrap onto a row of their own.
 */
export function ConsoleHeader() {
  const { t, i18n } = useLingui();
  const staff = useStaff();
  const may = useMay();
  const { signOut } = useConsoleSession();
  const [leaving, setLeaving] = useState(false);
  const role = i18n._(ROLE_LABELS[staff.role]);
  const { pathname } = useLocation();
  // The area the page is in (its page, or one under it), as the borrower's menu marks its own.
  const within = (to: string) => pathname === to || pathname.startsWith(`${to}/`);
  return (
    <header className="console-header" data-testid="console-header">
      <div className="console-header__bar">
        <Link className="console-brand" to={consoleRoutes.borrowers.path}>
          <LogoMark />
          <span>
            <Trans>Staff console</Trans>
          </span>
        </Link>
        <nav className="console-nav" aria-label={t`Staff console`}>
          <ul>
            {CONSOLE_AREAS.filter((area) => may(area.gate)).map((area) => (
              <li key={area.to}>
                <Link
                  className="console-nav__link"
                  to={area.to}
                  aria-current={within(area.to) ? 'page' : undefined}
                >
                  {i18n._(area.label)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="console-header__who">
          <p className="console-header__staff" data-testid="console-staff-member">
            <span className="console-header__name">{staff.name}</span>
            <span className="console-header__role">{role}</span>
          </p>
          <button
            type="button"
            className="console-header__sign-out"
            disabled={leaving}
            onClick={() => {
              setLeaving(true);
              void signOut();
            }}
            data-testid="console-sign-out"
          >
            {leaving ? t`Signing out…` : t`Sign out`}
          </button>
        </div>
      </div>
    </header>
  );
}
