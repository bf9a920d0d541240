import { ACCESS_TOKEN_STORAGE_KEY } from '@customer-core/contracts';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { hasStoredAccessToken } from '../product-session';
import { toError } from '../to-error';
import { AuthContext, type AuthContextValue, type AuthState } from './auth-context';

const UNAUTHENTICATED: AuthState = { status: 'unauthenticated', error: null, signedOut: false };
const UNKNOWN: AuthState = { status: 'unknown', error: null, signedOut: false };

// Without a stored product token the answer is known at once: no spinner, no extra download.
// With one, the check (token decoding, identity provider) is loaded on demand.
function initialState(): AuthState {
  return hasStoredAccessToken() ? UNKNOWN : UNAUTHENTICATED;
}

// Token decoding and the identity provider are loaded on demand, after the first paint.
async function computeAuthState(): Promise<AuthState> {
  try {
    const { resolveAuthStatus } = await import('./resolve-auth-status');
    return { status: await resolveAuthStatus(), error: null, signedOut: false };
  } catch (error) {
    return { status: 'unauthenticated', error: toError(error), signedOut: false };
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>(initialState);
  // Only the latest check may write its answer.
  const latestCheck = useRef(0);

  // Applies the answer of a check unless a newer one started meanwhile.
  const check = useCallback(() => {
    const thisCheck = ++latestCheck.current;
    return computeAuthState().then((next) => {
      if (thisCheck === latestCheck.current) setState(next);
    });
  }, []);

  const refresh = useCallback(async () => {
    if (!hasStoredAccessToken()) {
      latestCheck.current += 1;
      setState(UNAUTHENTICATED);
      return;
    }
    setState((current) => (current.status === 'authenticated' ? current : UNKNOWN));
    await check();
  }, [check]);

  const signOut = useCallback(async () => {
    latestCheck.current += 1;
    const { endSession } = await import('./end-session');
    await endSession();
    setState({ status: 'unauthenticated', error: null, signedOut: true });
  }, []);

  useEffect(() => {
    // The initial state is already 'unknown' when there is a token to check.
    if (hasStoredAccessToken()) void check();
    // Another tab signed in or out.
    const onStorage = (event: StorageEvent) => {
      if (event.key === ACCESS_TOKEN_STORAGE_KEY || event.key === null) void refresh();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [check, refresh]);

  const value = useMemo<AuthContextValue>(() => ({ ...state, refresh, signOut }), [state, refresh, signOut]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
