import { toSafeReturnPath } from '@customer-core/contracts';

// The address a borrower asked for before being sent to sign in, kept for this tab only.
const RETURN_PATH_STORAGE_KEY = 'customer-core.return-path';

export function saveReturnPath(path: string): void {
  try {
    sessionStorage.setItem(RETURN_PATH_STORAGE_KEY, toSafeReturnPath(path));
  } catch {
    // Storage can be unavailable (private mode, quota): the default landing path is used then.
  }
}

/** Where to go after sign-in: the saved address when it is safe, otherwise the default landing path. */
export function peekReturnPath(): string {
  try {
    return toSafeReturnPath(sessionStorage.getItem(RETURN_PATH_STORAGE_KEY));
  } catch {
    return toSafeReturnPath(null);
  }
}

/** The saved address itself (made safe), or null when the borrower asked for none. */
export function readSavedReturnPath(): string | null {
  try {
    const saved = sessionStorage.getItem(RETURN_PATH_STORAGE_KEY);
    return saved ? toSafeReturnPath(saved) : null;
  } catch {
    return null;
  }
}

export function clearReturnPath(): void {
  try {
    sessionStorage.removeItem(RETURN_PATH_STORAGE_KEY);
  } catch {
    // Nothing stored then.
  }
}
