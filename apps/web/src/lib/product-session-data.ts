import {
  StoredProfileSchema,
  decodeAccessToken,
  type DecodedAccessToken,
  type StoredProfile,
} from '@customer-core/contracts';
import { readRawAccessToken, readRawProfile } from './product-session';

/** The product access token, decoded (spec section 3); null when absent or malformed. */
export function readAccessToken(): DecodedAccessToken | null {
  return decodeAccessToken(readRawAccessToken());
}

export function hasValidAccessToken(): boolean {
  return readAccessToken()?.isValid ?? false;
}

export function readStoredProfile(): StoredProfile | null {
  const raw = readRawProfile();
  if (!raw) return null;
  try {
    const parsed = StoredProfileSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
