import type { ReactNode } from 'react';
import { LanguageSwitcher } from '../../components/language-switcher';
import { FocusOnNavigation } from '../../components/layout/focus-on-navigation';
import { LogoMark } from '../../components/layout/logo-mark';
import { MAIN_CONTENT_ID, SkipLink } from '../../components/layout/skip-link';
import { getLenderBranding } from '../../config/portal-config-meta';

/** The console before sign-in: the lender's name across the top, one card in the middle. */
export function ConsoleFrame({ children }: { children: ReactNode }) {
  return (
    <div className="console console--signed-out">
      <SkipLink />
      <FocusOnNavigation />
      <header className="console-header">
        <div className="console-header__bar">
          <span className="console-brand">
            <LogoMark />
            <span>{getLenderBranding().name}</span>
          </span>
        </div>
      </header>
      <main id={MAIN_CONTENT_ID} className="console__main console__main--narrow" tabIndex={-1}>
        {children}
      </main>
      <footer className="console__footer">
        <LanguageSwitcher />
      </footer>
    </div>
  );
}
