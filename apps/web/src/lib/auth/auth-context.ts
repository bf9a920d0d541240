import { createContext } from 'react';
import type { ExpiryWarning } from '../session/session-manager';

export type AuthStatus = 'unknown' | 'authenticated' | 'unauthenticated';

export interface AuthState {
  status: AuthStatus;
  /** Set when the auth check itself threw. */
  error: Error | null;
  /** True right after an explicit sign-out (here or in another tab): the guard then does not remember the page. */
  signedOut: boolean;
  /** True when the session ended on its own (expired, refused by the API): sign-in says so. */
  sessionEnded: boolean;
}

export interface AuthContextValue extends AuthState {
  /** Re-reads the session (after a login redirect, a sign-in elsewhere, ...). */
  refresh: () => Promise<void>;
  /** Ends the session here and on the product API, and forgets every local trace of it. */
  signOut: () => Promise<void>;
  /** Set while an idle borrower's session is about to end. */
  expiryWarning: ExpiryWarning | null;
  /** Refreshes the session now ("Stay signed in"); false when the server could not be reached. */
  staySignedIn: () => Promise<boolean>;
}

export const AuthContext = createContext<AuthContextValue | null>(null);
