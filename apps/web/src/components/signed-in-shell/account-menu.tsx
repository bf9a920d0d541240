import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { routes } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavLink } from 'react-router';
import type { SignedInBorrower } from '../../lib/borrower-name';
import { BORROWER_AREAS } from './borrower-areas';
import { useSignOut } from './use-sign-out';

function Chevron() {
  return (
    <svg className="account-menu__chevron" viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
      <path d="m5 7.5 5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

function MenuIcon() {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
      <path
        d="M4 7h16M4 12h16M4 17h16"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </svg>
  );
}

const initials = (name: string) =>
  name
    .split(/\s+/)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');

interface AccountMenuProps {
  borrower: SignedInBorrower;
  /** On phones the one menu also carries the navigation. */
  compact: boolean;
}

/** Who is signed in, and the menu to sign out (with the borrower's areas on phones). */
export function AccountMenu({ borrower, compact }: AccountMenuProps) {
  const { t, i18n } = useLingui();
  const { signingOut, signOut } = useSignOut();
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        className={`account-menu__trigger${compact ? ' account-menu__trigger--compact' : ''}`}
        data-testid={compact ? 'phone-menu-trigger' : 'account-menu-trigger'}
      >
        {compact ? (
          <>
            <MenuIcon />
            <span>
              <Trans>Menu</Trans>
            </span>
          </>
        ) : (
          <>
            <span className="account-menu__avatar" aria-hidden="true">
              {initials(borrower.name)}
            </span>
            <span className="account-menu__name" data-testid="signed-in-name">
              {borrower.name}
            </span>
            <span className="visually-hidden">
              <Trans>: account menu</Trans>
            </span>
            <Chevron />
          </>
        )}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className="account-menu__content"
          align="end"
          sideOffset={8}
          data-testid={compact ? 'phone-menu' : 'account-menu'}
        >
          <DropdownMenu.Label className="account-menu__label">
            <span className="account-menu__label-name">{borrower.name}</span>
            {borrower.email && borrower.email !== borrower.name && (
              <span className="account-menu__label-email">{borrower.email}</span>
            )}
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="account-menu__separator" />
          {compact && (
            <>
              {BORROWER_AREAS.map((area) => (
                <DropdownMenu.Item key={area.to} asChild className="account-menu__item">
                  <NavLink to={area.to} end={area.end}>
                    {i18n._(area.label)}
                  </NavLink>
                </DropdownMenu.Item>
              ))}
              <DropdownMenu.Separator className="account-menu__separator" />
            </>
          )}
          <DropdownMenu.Item asChild className="account-menu__item">
            <NavLink to={routes.account.path} data-testid="account-menu-account">
              <Trans>Sign-in and security</Trans>
            </NavLink>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild className="account-menu__item">
            <NavLink to={routes.bankAccounts.path} data-testid="account-menu-bank-accounts">
              <Trans>Bank accounts</Trans>
            </NavLink>
          </DropdownMenu.Item>
          <DropdownMenu.Item className="account-menu__item" disabled={signingOut} onSelect={signOut}>
            {signingOut ? t`Signing out…` : t`Sign out`}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
