import { routes } from '@customer-core/contracts';
import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { NavLink, matchPath } from 'react-router';
import { usePendingNavigation } from '../../lib/navigation/portal-router';
import { readSignedInBorrower } from '../../lib/borrower-name';
import { LenderLogo } from '../layout/lender-logo';
import { AccountMenu } from './account-menu';
import { BORROWER_AREAS } from './borrower-areas';

/**
 * The signed-in area's header: the logo (to the borrower's home), the borrower's areas and who is
 * signed in with their menu. On phones a compact bar: the logo and one menu with everything.
 */
export function SignedInHeader() {
  const { t, i18n } = useLingui();
  const [borrower] = useState(readSignedInBorrower);
  const pending = usePendingNavigation();
  // The area a navigation under way goes to is marked at once, before its page has loaded.
  const goingTo = (area: (typeof BORROWER_AREAS)[number]) =>
    pending !== null && matchPath({ path: area.to, end: area.end }, pending.pathname) !== null;
  return (
    <header className="app-header" data-testid="app-header">
      <div className="app-header__bar">
        <LenderLogo home={routes.dashboard.path} />
        <nav className="app-header__nav" aria-label={t`Your account`}>
          <ul>
            {BORROWER_AREAS.map((area) => (
              <li key={area.to}>
                <NavLink
                  className="app-header__link"
                  to={area.to}
                  end={area.end}
                  data-pending={goingTo(area) || undefined}
                >
                  {i18n._(area.label)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="app-header__account">
          <AccountMenu borrower={borrower} compact={false} />
        </div>
        <div className="app-header__phone-menu">
          <AccountMenu borrower={borrower} compact />
        </div>
      </div>
    </header>
  );
}
