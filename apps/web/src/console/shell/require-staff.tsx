import { consoleRoutes } from '@customer-core/contracts';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useConsoleSession } from '../session/console-session-context';

/** Where the sign-in screen leads back to, when it was reached on the way to a page. */
export interface ConsoleReturn {
  from?: string;
}

/** The signed-in console, or its sign-in screen (which leads back here) when there is no session. */
export function RequireStaff({ children }: { children: ReactNode }) {
  const { session } = useConsoleSession();
  const location = useLocation();
  if (!session) {
    const state: ConsoleReturn = { from: `${location.pathname}${location.search}` };
    return <Navigate to={consoleRoutes.signIn.path} replace state={state} />;
  }
  return children;
}
