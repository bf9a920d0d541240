import {
  ACCESS_TOKEN_STORAGE_KEY,
  PROFILE_STORAGE_KEY,
  WITHOUT_IDP_SESSION_STORAGE_KEY,
} from '@customer-core/contracts';

// The product's own session in localStorage (spec section 3): the access token and the identity profile.
// Reading and writing only; decoding (zod) lives in product-session-data.ts, outside the first paint.
// Storage can throw (disabled storage, private mode); a failed read counts as "nothing stored".

export function readRawAccessToken(): string | null {
  try {
    return localStorage.getItem(ACCESS_TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}

export function hasStoredAccessToken(): boolean {
  return Boolean(readRawAccessToken());
}

export function readRawProfile(): string | null {
  try {
    return localStorage.getItem(PROFILE_STORAGE_KEY);
  } catch {
    return null;
  }
}

export function storeAccessToken(raw: string): void {
  localStorage.setItem(ACCESS_TOKEN_STORAGE_KEY, raw);
}

/** Stores the identity provider's user profile exactly as received (spec section 4, step 2). */
export function storeProfileJson(profile: unknown): void {
  localStorage.setItem(PROFILE_STORAGE_KEY, JSON.stringify(profile));
}

/**
 * How the last session ended, written just before the token is removed so that the other tabs, told
 * of the removal by a storage event, can tell a sign-out (no notice) from a session that ran out.
 */
export type SessionEndReason = 'signed-out' | 'ended';
const SESSION_END_STORAGE_KEY = 'customer-core.session-end';

export function readSessionEndReason(): SessionEndReason {
  try {
    return localStorage.getItem(SESSION_END_STORAGE_KEY) === 'signed-out' ? 'signed-out' : 'ended';
  } catch {
    return 'ended';
  }
}

/**
 * A session begun by a sign-in link with a hosted Okta org, which mints no session token without a
 * password: the product session then stands alone, with no identity-provider session beside it.
 */
export function markWithoutIdentityProviderSession(): void {
  localStorage.setItem(WITHOUT_IDP_SESSION_STORAGE_KEY, 'true');
}

export function isWithoutIdentityProviderSession(): boolean {
  try {
    return localStorage.getItem(WITHOUT_IDP_SESSION_STORAGE_KEY) === 'true';
  } catch {
    return false;
  }
}

export function clearProductSession(reason: SessionEndReason): void {
  try {
    localStorage.setItem(SESSION_END_STORAGE_KEY, reason);
    localStorage.removeItem(WITHOUT_IDP_SESSION_STORAGE_KEY);
    localStorage.removeItem(ACCESS_TOKEN_STORAGE_KEY);
    localStorage.removeItem(PROFILE_STORAGE_KEY);
  } catch {
    // Nothing could have been stored then.
  }
}
