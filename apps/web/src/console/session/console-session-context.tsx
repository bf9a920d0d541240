import { consoleEndpoints, type ConsoleSession, type StaffMember } from '@customer-core/contracts';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { apiClient } from '../../lib/api-client';
import { clearConsoleSession, hasExpired, readConsoleSession, storeConsoleSession } from './console-session';

/** How the last console session of this tab ended: said on the sign-in screen it leads to. */
export type SessionEnd =
  /** The staff member signed out. */
  | 'signed-out'
  /** Its time ran out (CONSOLE_SESSION_MINUTES after the sign-in, 30 by default). */
  | 'expired'
  /** The API refused its token: ended elsewhere, or the role was taken away. */
  | 'refused';

interface ConsoleSessionValue {
  session: ConsoleSession | null;
  /** Why the last session ended, until the next sign-in. */
  ended: SessionEnd | null;
  /** A sign-in, or a new sign-in of the same staff member (confirming it's them): its token from now on. */
  begin(session: ConsoleSession): void;
  /** The staff member as the API says they are now (their name or role changed meanwhile). */
  update(staff: StaffMember): void;
  end(why: SessionEnd): void;
  /** Ends the session at the API (its token answers 401 from then on), then here. */
  signOut(): Promise<void>;
}

const ConsoleSessionContext = createContext<ConsoleSessionValue | null>(null);

/** The longest a browser timer waits (about 24.8 days); a session lasts far less. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function initialSession(): ConsoleSession | null {
  const stored = readConsoleSession();
  if (stored && hasExpired(stored)) {
    clearConsoleSession();
    return null;
  }
  return stored;
}

/** The console session of this tab, kept in sessionStorage; it ends at its own expiry, or when told. */
export function ConsoleSessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState(initialSession);
  const [ended, setEnded] = useState<SessionEnd | null>(null);

  const begin = useCallback((next: ConsoleSession) => {
    storeConsoleSession(next);
    setSession(next);
    setEnded(null);
  }, []);

  const update = useCallback((staff: StaffMember) => {
    const current = readConsoleSession();
    if (!current) return;
    const next = { ...current, staff };
    storeConsoleSession(next);
    setSession(next);
  }, []);

  const end = useCallback((why: SessionEnd) => {
    clearConsoleSession();
    setSession(null);
    setEnded(why);
  }, []);

  const signOut = useCallback(async () => {
    const token = readConsoleSession()?.accessToken;
    // Out here first: whatever the API answers, this tab holds no session any more.
    end('signed-out');
    if (token) await apiClient.call(consoleEndpoints.signOut, { token });
  }, [end]);

  // A session ends on time here too, rather than on the next call's refusal.
  useEffect(() => {
    if (!session) return;
    const left = Date.parse(session.staff.expiresAt) - Date.now();
    if (!Number.isFinite(left)) return;
    const timer = window.setTimeout(() => end('expired'), Math.min(Math.max(left, 0), MAX_TIMER_MS));
    return () => window.clearTimeout(timer);
  }, [session, end]);

  const value = useMemo(
    () => ({ session, ended, begin, update, end, signOut }),
    [session, ended, begin, update, end, signOut],
  );
  return <ConsoleSessionContext value={value}>{children}</ConsoleSessionContext>;
}

export function useConsoleSession(): ConsoleSessionValue {
  const value = useContext(ConsoleSessionContext);
  if (!value) throw new Error('useConsoleSession needs a <ConsoleSessionProvider> above it');
  return value;
}

/** The signed-in staff member, under the console's guard (RequireStaff). */
export function useStaff(): StaffMember {
  const { session } = useConsoleSession();
  if (!session) throw new Error('useStaff needs a signed-in staff member (RequireStaff)');
  return session.staff;
}
