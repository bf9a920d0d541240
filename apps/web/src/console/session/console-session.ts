import {
  CONSOLE_SESSION_STORAGE_KEY,
  ConsoleSessionSchema,
  type ConsoleSession,
} from '@customer-core/contracts';

// The console's session in this tab's sessionStorage: its token and the staff member it was given to.
// Apart from the borrower's product session (localStorage), which the console never reads or writes,
// and gone with the tab. Storage can throw (disabled storage, private mode): a failed read counts as
// "nothing stored", a failed write leaves the session in memory only, for this page.

let inMemory: ConsoleSession | null = null;

export function readConsoleSession(): ConsoleSession | null {
  try {
    const raw = sessionStorage.getItem(CONSOLE_SESSION_STORAGE_KEY);
    if (raw === null) return inMemory;
    const parsed = ConsoleSessionSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return inMemory;
  }
}

export function storeConsoleSession(session: ConsoleSession): void {
  inMemory = session;
  try {
    sessionStorage.setItem(CONSOLE_SESSION_STORAGE_KEY, JSON.stringify(session));
  } catch {
    // Kept in memory: the console works until the page is reloaded.
  }
}

export function clearConsoleSession(): void {
  inMemory = null;
  try {
    sessionStorage.removeItem(CONSOLE_SESSION_STORAGE_KEY);
  } catch {
    // Nothing could have been stored then.
  }
}

/** Whether the session's sign-in has run out by its own clock (the API's 401 says so too, later). */
export function hasExpired(session: ConsoleSession, now = Date.now()): boolean {
  const ends = Date.parse(session.staff.expiresAt);
  return Number.isFinite(ends) && ends <= now;
}
