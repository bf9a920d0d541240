import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { ToastsProvider } from '../../src/components/toasts/toasts-provider.tsx';
import { AuthContext, type AuthContextValue } from '../../src/lib/auth/auth-context.ts';

// A component as the app holds it: under the session's context (a visitor not signed in, unless
// told otherwise), the toasts and a router at `path` (with a navigation's `state`).

const signedOut: AuthContextValue = {
  status: 'unauthenticated',
  error: null,
  signedOut: false,
  sessionEnded: false,
  expiryWarning: null,
  refresh: async () => {},
  signOut: async () => {},
  staySignedIn: async () => true,
};

export function renderInApp(
  ui: ReactNode,
  { path = '/', state, auth = {} }: { path?: string; state?: unknown; auth?: Partial<AuthContextValue> } = {},
): RenderResult {
  return render(
    <AuthContext.Provider value={{ ...signedOut, ...auth }}>
      <ToastsProvider>
        <MemoryRouter initialEntries={[{ pathname: path, state }]}>{ui}</MemoryRouter>
      </ToastsProvider>
    </AuthContext.Provider>,
  );
}
