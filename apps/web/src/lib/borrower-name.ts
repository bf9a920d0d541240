import { readAccessToken, readStoredProfile } from './product-session-data';

export function fullName(
  profile: { firstName?: string | null; lastName?: string | null } | null,
): string | null {
  const name = [profile?.firstName, profile?.lastName].filter(Boolean).join(' ');
  return name || null;
}

export interface SignedInBorrower {
  /** The name kept at sign-in (mf-profile), else the e-mail address. */
  name: string;
  email: string | null;
}

/** Who is signed in, from what this browser kept at sign-in: there from the first render. */
export function readSignedInBorrower(): SignedInBorrower {
  const profile = readStoredProfile();
  const email = readAccessToken()?.email ?? profile?.login ?? null;
  return { name: fullName(profile) ?? email ?? 'Your account', email };
}
