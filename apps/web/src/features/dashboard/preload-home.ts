import { routes } from '@customer-core/contracts';
import { withPortalMessages } from '../../i18n/catalogs';
import { preloadable } from '../../lib/preloadable';

// The signed-in home's code, and the borrower's loans, asked for before the home is shown: as a
// sign-in finishes (app/router.tsx hands `homeLanding` to the login redirect's screens), rather than
// one after the other once the page has moved there. The routes render these modules.

export const signedInLayout = preloadable(() =>
  withPortalMessages(import('../../components/signed-in-shell/signed-in-layout')),
);
export const dashboardScreen = preloadable(() => withPortalMessages(import('./dashboard-screen')));

const isHome = (path: string) => new URL(path, window.location.origin).pathname === routes.dashboard.path;

/**
 * Fetches the home's code (the signed-in shell and the home's screen) when `path` leads there; resolves
 * once it is loaded, so that the home then shows at once, or failed (the route's own import then fails
 * the same way, under its error boundary).
 */
export async function preloadHomeCode(path: string): Promise<void> {
  if (!isHome(path)) return;
  // What asks for the loans first: they are asked for as soon as the sign-in has finished.
  await Promise.all([loadLoans(), signedInLayout.load(), dashboardScreen.load()]).catch(() => undefined);
}

const loadLoans = () => import('./use-loans');

/** Asks for the signed-in borrower's loans when `path` leads home: the home takes the answer. */
export function preloadHomeLoans(path: string): void {
  if (!isHome(path)) return;
  loadLoans().then(
    (module) => module.loadLoansEarly(),
    () => undefined,
  );
}

/** The home as a landing of the login redirect (login-redirect-processor.tsx). */
export const homeLanding = { code: preloadHomeCode, data: preloadHomeLoans };
