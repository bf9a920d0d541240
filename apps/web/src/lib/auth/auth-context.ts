import { createContext } from 'react';

export type AuthStatus = 'unknown' | 'authenticated' | 'unauthenticated';

export interface AuthState {
  status: AuthStatus;
  /** Set when the auth check itself threw. */
  error: Error | null;
  /** True right after an explicit sign-out: the guard then does not remember the page. */
  signedOut: boolean;
}

export interface AuthContextValue extends AuthState {
  /** Re-reads the session (after a login redirect, a sign-in elsewhere, ...). */
  refresh: () => Promise<void>;
  /** Ends the session here and on the product API, and forgets every local trace of it. */
  signOut: () => Promise<void>;
}

export const AuthContext = createContext<AuthContextValue | null>(null);
