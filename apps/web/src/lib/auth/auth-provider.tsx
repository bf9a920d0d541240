import { ACCESS_TOKEN_STORAGE_KEY } from '@customer-core/contracts';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  clearProductSession,
  hasStoredAccessToken,
  readSessionEndReason,
  type SessionEndReason,
} from '../product-session';
import type { ExpiryWarning, SessionManager } from '../session/session-manager';
import { toError } from '../to-error';
import { loadAuthCheck } from './auth-check';
import { AuthContext, type AuthContextValue, type AuthState } from './auth-context';

const UNAUTHENTICATED: AuthState = {
  status: 'unauthenticated',
  error: null,
  signedOut: false,
  sessionEnded: false,
};
const UNKNOWN: AuthState = { ...UNAUTHENTICATED, status: 'unknown' };
const AUTHENTICATED: AuthState = { ...UNAUTHENTICATED, status: 'authenticated' };
const SIGNED_OUT: AuthState = { ...UNAUTHENTICATED, signedOut: true };
const SESSION_ENDED: AuthState = { ...UNAUTHENTICATED, sessionEnded: true };

// Without a stored product token the answer is known at once: no spinner, no extra download.
// With one, the check (token decoding, identity provider) is loaded on demand.
function initialState(): AuthState {
  return hasStoredAccessToken() ? UNKNOWN : UNAUTHENTICATED;
}

const loadEndSession = () => import('./end-session');

// Token decoding and the identity provider are loaded on demand, after the first paint.
async function computeAuthState(): Promise<AuthState> {
  try {
    const { resolveAuthStatus } = await loadAuthCheck();
    const status = await resolveAuthStatus();
    // Only called with a stored session: one that is no longer usable (expired) ended on its own.
    if (status === 'unauthenticated') return SESSION_ENDED;
    return status === 'authenticated' ? AUTHENTICATED : UNKNOWN;
  } catch (error) {
    return { ...UNAUTHENTICATED, error: toError(error) };
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>(initialState);
  const [expiryWarning, setExpiryWarning] = useState<ExpiryWarning | null>(null);
  // Only the latest check may write its answer.
  const latestCheck = useRef(0);
  const status = useRef(state.status);
  const sessionManager = useRef<SessionManager | null>(null);

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
    await (await loadEndSession()).endSession();
    setState(SIGNED_OUT);
  }, []);

  /** The session ended without this tab signing out: expiry, a refused token, or another tab. */
  const endHere = useCallback((reason: SessionEndReason, clearStorage: boolean) => {
    latestCheck.current += 1;
    if (clearStorage) clearProductSession(reason);
    setState(reason === 'signed-out' ? SIGNED_OUT : SESSION_ENDED);
    void loadEndSession().then((module) => module.forgetIdentityProviderTokens());
  }, []);

  const staySignedIn = useCallback(
    () => sessionManager.current?.staySignedIn() ?? Promise.resolve(false),
    [],
  );

  useEffect(() => {
    status.current = state.status;
  }, [state.status]);

  useEffect(() => {
    // The initial state is already 'unknown' when there is a token to check.
    if (hasStoredAccessToken()) void check();
    const onStorage = (event: StorageEvent) => {
      if (event.key !== ACCESS_TOKEN_STORAGE_KEY && event.key !== null) return;
      if (hasStoredAccessToken()) {
        // Signed in elsewhere. (A token refreshed elsewhere is the session manager's.)
        if (status.current !== 'authenticated') void refresh();
      } else if (status.current !== 'unauthenticated') {
        // Signed out, or the session ran out, in another tab: leave too, at once.
        endHere(readSessionEndReason(), false);
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [check, refresh, endHere]);

  // While signed in: token refresh, the expiry warning, and the end of the session (session-manager.ts)
  // on expiry, a refused refresh or a 401 from any Bearer call.
  useEffect(() => {
    if (state.status !== 'authenticated') return;
    let active = true;
    // A failed download surfaces as an unhandled rejection, which error reporting picks up.
    void import('../session/session-manager').then((module) => {
      if (!active) return;
      sessionManager.current = module.startSessionManager({
        onWarning: setExpiryWarning,
        onEnded: () => endHere('ended', true),
      });
    });
    return () => {
      active = false;
      sessionManager.current?.stop();
      sessionManager.current = null;
    };
  }, [state.status, endHere]);

  const value = useMemo<AuthContextValue>(
    () => ({ ...state, refresh, signOut, expiryWarning, staySignedIn }),
    [state, refresh, signOut, expiryWarning, staySignedIn],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
