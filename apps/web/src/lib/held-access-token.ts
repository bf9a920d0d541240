// An e-mailed sign-in link gives the product token before the identity provider's sign-in is done.
// Stored as mf_access_token at once, it would be seen by the portal's other tabs (storage event)
// without an identity-provider session, and they would end it as invalid. So it waits in this tab's
// sessionStorage, which survives the full-page redirect, and the login callback stores it.

const HELD_TOKEN_STORAGE_KEY = 'customer-core.held-access-token';

export function holdAccessToken(raw: string): void {
  sessionStorage.setItem(HELD_TOKEN_STORAGE_KEY, raw);
}

/** The held token, read once. */
export function takeHeldAccessToken(): string | null {
  try {
    const raw = sessionStorage.getItem(HELD_TOKEN_STORAGE_KEY);
    sessionStorage.removeItem(HELD_TOKEN_STORAGE_KEY);
    return raw;
  } catch {
    return null;
  }
}
