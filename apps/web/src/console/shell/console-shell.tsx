import { consoleEndpoints } from '@customer-core/contracts';
import { Suspense, useEffect } from 'react';
import { FocusOnNavigation } from '../../components/layout/focus-on-navigation';
import { MAIN_CONTENT_ID, SkipLink } from '../../components/layout/skip-link';
import { LanguageSwitcher } from '../../components/language-switcher';
import { Loading } from '../../components/loading';
import { useConsoleApi } from '../session/console-api';
import { useConsoleSession } from '../session/console-session-context';
import { RouteErrorBoundary } from '../../components/route-error-boundary';
import { ConsoleError } from './console-error';
import { ConsoleHeader } from './console-header';

/** A page that throws while rendering: the console's own error page, inside the shell. */
const consoleError = (error: unknown) => <ConsoleError error={error} />;

/**
 * The signed-in console: its top bar and the area's page below it, at a working width. The staff
 * member is asked for again as the console opens: a role changed meanwhile shows at once, and a
 * session ended elsewhere sends the console to its sign-in screen.
 */
export function ConsoleShell() {
  const api = useConsoleApi();
  const { update } = useConsoleSession();
  useEffect(() => {
    const controller = new AbortController();
    void api.call(consoleEndpoints.me, { signal: controller.signal }).then((outcome) => {
      if (outcome.ok && !controller.signal.aborted) update(outcome.data);
    });
    return () => controller.abort();
  }, [api, update]);

  return (
    <div className="console" data-testid="console-shell">
      <SkipLink />
      <FocusOnNavigation />
      <ConsoleHeader />
      <main id={MAIN_CONTENT_ID} className="console__main" tabIndex={-1}>
        <Suspense fallback={<Loading />}>
          {/* The route's page, through the boundary's Outlet. */}
          <RouteErrorBoundary fallback={consoleError} />
        </Suspense>
      </main>
      <footer className="console__footer">
        <LanguageSwitcher />
      </footer>
    </div>
  );
}
