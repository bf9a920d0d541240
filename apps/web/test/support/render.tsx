import { I18nProvider } from '@lingui/react';
import { render, waitFor, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { ToastsProvider } from '../../src/components/toasts/toasts-provider.tsx';
import { AuthContext, type AuthContextValue } from '../../src/lib/auth/auth-context.ts';
import { i18n } from './i18n.ts';

/** A component in the portal's language, as the app holds every screen. */
export function InPortalLanguage({ children }: { children: ReactNode }) {
  return <I18nProvider i18n={i18n}>{children}</I18nProvider>;
}

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
  // A wrapper, so that a rerender keeps the app around the component.
  const wrapper = ({ children }: { children: ReactNode }) => (
    <InPortalLanguage>
      <AuthContext.Provider value={{ ...signedOut, ...auth }}>
        <ToastsProvider>
          <MemoryRouter initialEntries={[{ pathname: path, state }]}>{children}</MemoryRouter>
        </ToastsProvider>
      </AuthContext.Provider>
    </InPortalLanguage>
  );
  return render(ui, { wrapper });
}

const named = (element: Element | null) =>
  element
    ? `<${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}> "${element.textContent?.slice(0, 40)}"`
    : 'nothing';

/**
 * Waits until `element` has the focus: a screen moves it in an effect, once it shows. (A failure names
 * the elements: node's assert would print a whole DOM node.)
 */
export async function expectFocus(element: Element): Promise<void> {
  await waitFor(() => {
    if (document.activeElement !== element)
      throw new Error(`the focus is on ${named(document.activeElement)}, not on ${named(element)}`);
  });
}

/** That a query found nothing, said briefly (see expectFocus). */
export function expectNone(element: Element | null, what: string): void {
  if (element) throw new Error(`${what}: found ${named(element)}`);
}
