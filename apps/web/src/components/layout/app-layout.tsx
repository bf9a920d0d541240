import { Suspense, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { usePendingNavigation } from '../../lib/navigation/portal-router';
import { Loading } from '../loading';
import { BrandPanel } from './brand-panel';
import { FocusOnNavigation } from './focus-on-navigation';
import { SiteFooter } from './site-footer';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';
import './layout.css';

/** The branded two-column page (spec section 1): brand panel on the left, the screen's card on the right. */
export function PageShell({ children }: { children: ReactNode }) {
  const leaving = usePendingNavigation() !== null;
  return (
    <div className="page">
      <SkipLink />
      <FocusOnNavigation />
      <BrandPanel />
      <div className="page__content">
        <main id={MAIN_CONTENT_ID} className="content-card" tabIndex={-1} aria-busy={leaving || undefined}>
          {children}
        </main>
        <SiteFooter signInLink />
      </div>
    </div>
  );
}

export function AppLayout() {
  return (
    <PageShell>
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    </PageShell>
  );
}
