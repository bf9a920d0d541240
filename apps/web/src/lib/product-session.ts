import { ACCESS_TOKEN_STORAGE_KEY, PROFILE_STORAGE_KEY } from '@customer-core/contracts';

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

export function clearProductSession(): void {
  try {
    localStorage.removeItem(ACCESS_TOKEN_STORAGE_KEY);
    localStorage.removeItem(PROFILE_STORAGE_KEY);
  } catch {
    // Nothing could have been stored then.
  }
}
