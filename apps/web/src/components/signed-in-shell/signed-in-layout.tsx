import { Suspense, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { saveProfileLanguage } from '../../lib/profile-language';
import { usePendingNavigation } from '../../lib/navigation/portal-router';
import { RequireAuth } from '../require-auth';
import { FocusOnNavigation } from '../layout/focus-on-navigation';
import { SiteFooter } from '../layout/site-footer';
import { MAIN_CONTENT_ID, SkipLink } from '../layout/skip-link';
import { Loading } from '../loading';
import { SignedInHeader } from './signed-in-header';
import './signed-in-shell.css';

/** The signed-in area's page: header and navigation across the top, the screen full width below. */
export function SignedInShell({ children }: { children: ReactNode }) {
  const leaving = usePendingNavigation() !== null;
  return (
    <div className="app-shell" data-testid="signed-in-shell">
      <SkipLink />
      <FocusOnNavigation />
      <SignedInHeader />
      <main id={MAIN_CONTENT_ID} className="app-shell__main" tabIndex={-1} aria-busy={leaving || undefined}>
        {children}
      </main>
      <SiteFooter onLanguageChosen={saveProfileLanguage} />
    </div>
  );
}

/** The signed-in shell around the route's screen. */
export function SignedInShellLayout() {
  return (
    <SignedInShell>
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    </SignedInShell>
  );
}

/** Everything under /ui/dashboard/: only for a signed-in borrower, inside the signed-in shell. */
export function SignedInLayout() {
  return (
    <RequireAuth>
      <SignedInShellLayout />
    </RequireAuth>
  );
}
