import { useLingui } from '@lingui/react/macro';
import { createContext, startTransition, useContext, useLayoutEffect, useState, type ReactNode } from 'react';
import { Router, UNSAFE_createBrowserHistory as createBrowserHistory, type Location } from 'react-router';
import './navigation-progress.css';

/** Where a navigation under way goes, or null when the page shown is the one asked for. */
const PendingNavigation = createContext<Location | null>(null);

/** The location a navigation under way leads to (its screen or its layout still loading), or null. */
export const usePendingNavigation = () => useContext(PendingNavigation);

/**
 * React Router's BrowserRouter, which also says when a navigation is under way. Its routes render in a
 * transition (as BrowserRouter's do), so a screen still loading on demand keeps the page shown until it
 * is ready rather than blanking it; meanwhile the location asked for is known at once (`requested`),
 * and a progress bar shows above the page. (A data router's useNavigation says this too, but would weigh
 * about 15 KB more in the first load: see app/router.tsx.)
 */
export function PortalRouter({ children }: { children: ReactNode }) {
  const { t } = useLingui();
  const [history] = useState(() => createBrowserHistory({ window, v5Compat: true }));
  const [requested, setRequested] = useState(history.location);
  const [shown, setShown] = useState({ action: history.action, location: history.location });
  useLayoutEffect(
    () =>
      history.listen((update) => {
        setRequested(update.location);
        startTransition(() => setShown(update));
      }),
    [history],
  );
  const pending = requested.key === shown.location.key ? null : requested;
  return (
    <PendingNavigation value={pending}>
      {pending && (
        <div
          className="navigation-progress"
          role="progressbar"
          aria-label={t`Loading the page`}
          data-testid="navigation-progress"
        />
      )}
      <Router location={shown.location} navigationType={shown.action} navigator={history}>
        {children}
      </Router>
    </PendingNavigation>
  );
}
