// A message for the signed-in home that the borrower must act on or remember (the recovery codes left
// after signing in with one; recovery codes to make after setting up a second step), said before the
// full-page sign-in redirect. Unlike a toast, gone in seconds, it stays on the home page until the
// borrower dismisses it: it waits in this tab's sessionStorage, which survives the redirect.

const LANDING_NOTICE_STORAGE_KEY = 'customer-core.landing-notice';

export interface LandingNotice {
  tone: 'info' | 'warning';
  text: string;
  /** A way to act on it: "recovery-codes" links to the account page's recovery codes. */
  offer?: 'recovery-codes';
}

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
    const { tone, text, offer } = value as Record<string, unknown>;
    if ((tone !== 'info' && tone !== 'warning') || typeof text !== 'string' || !text.trim()) return null;
    return { tone, text, ...(offer === 'recovery-codes' && { offer }) };
  } catch {
    return null;
  }
}
