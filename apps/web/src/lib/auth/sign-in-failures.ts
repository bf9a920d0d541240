import {
  SIGN_IN_FAILURES_STORAGE_KEY,
  SIGN_IN_LOCKOUT_FAILURES,
  SIGN_IN_LOCKOUT_SECONDS,
} from '@customer-core/contracts';

// The identity provider pauses password sign-in to an account after SIGN_IN_LOCKOUT_FAILURES wrong
// passwords from one network, and answers a paused account exactly as a wrong password or an unknown
// address: anything else would tell an attacker which addresses have accounts. So the form counts its
// own failures for the address tried, and past the same number says password sign-in is paused,
// whatever the address: a borrower is told what to do instead, and no one learns whether it exists.

interface Failures {
  email: string;
  count: number;
  /** Milliseconds since the epoch. */
  lastAt: number;
}

function read(): Failures | undefined {
  try {
    const raw = sessionStorage.getItem(SIGN_IN_FAILURES_STORAGE_KEY);
    const parsed = raw ? (JSON.parse(raw) as Partial<Failures>) : undefined;
    if (typeof parsed?.email !== 'string' || typeof parsed.count !== 'number') return undefined;
    return { email: parsed.email, count: parsed.count, lastAt: Number(parsed.lastAt) || 0 };
  } catch {
    return undefined;
  }
}

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Counts a refused password for `email`; whether password sign-in is paused for it now. Another address
 * starts a new count, and so does a failure after the pause would have run out.
 */
export function countSignInFailure(email: string, now = Date.now()): boolean {
  const before = read();
  const current =
    before && sameAddress(before.email, email) && now - before.lastAt < SIGN_IN_LOCKOUT_SECONDS * 1000
      ? before.count
      : 0;
  const count = current + 1;
  try {
    sessionStorage.setItem(SIGN_IN_FAILURES_STORAGE_KEY, JSON.stringify({ email, count, lastAt: now }));
  } catch {
    // Storage refused (a private window's quota): the form says nothing more than the banner.
  }
  return count >= SIGN_IN_LOCKOUT_FAILURES;
}

/** A sign-in that went through (or left for the identity provider): the count starts again. */
export function clearSignInFailures(): void {
  try {
    sessionStorage.removeItem(SIGN_IN_FAILURES_STORAGE_KEY);
  } catch {
    // Nothing kept: nothing to clear.
  }
}

/** Whether the identity provider refused the credentials (E0000004), not the network or a fault. */
export function isRefusedCredentials(error: unknown): boolean {
  const cause = (error as { cause?: { errorCode?: unknown } } | null)?.cause;
  return cause?.errorCode === 'E0000004';
}
