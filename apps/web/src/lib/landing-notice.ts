// A message for the signed-in home that the borrower must act on or remember (the recovery codes left
// after signing in with one; recovery codes to make after setting up a second step), said before the
// full-page sign-in redirect. Unlike a toast, gone in seconds, it stays on the home page until the
// borrower dismisses it: it waits in this tab's sessionStorage, which survives the redirect. What
// happened is kept, not words: the home page says it in the language it is shown in.

const LANDING_NOTICE_STORAGE_KEY = 'customer-core.landing-notice';

export type LandingNotice =
  /** Signed in with a recovery code: how many are left. */
  | { kind: 'recovery-codes-left'; remaining: number }
  /** A second step set up at sign-in or registration: recovery codes are offered next. */
  | { kind: 'second-step-on' };

export function saveLandingNotice(notice: LandingNotice): void {
  try {
    sessionStorage.setItem(LANDING_NOTICE_STORAGE_KEY, JSON.stringify(notice));
  } catch {
    // Storage can be unavailable (private mode, quota): the notice is lost, nothing else.
  }
}

export function dismissLandingNotice(): void {
  try {
    sessionStorage.removeItem(LANDING_NOTICE_STORAGE_KEY);
  } catch {
    // Nothing stored then.
  }
}

/** The notice waiting for the home page, if any (it stays until dismissed). */
export function readLandingNotice(): LandingNotice | null {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(LANDING_NOTICE_STORAGE_KEY) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const { kind, remaining } = value as Record<string, unknown>;
    if (kind === 'second-step-on') return { kind };
    if (kind === 'recovery-codes-left' && Number.isSafeInteger(remaining) && (remaining as number) >= 0)
      return { kind, remaining: remaining as number };
    return null;
  } catch {
    return null;
  }
}
