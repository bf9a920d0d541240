import { authEndpoints, type Profile } from '@customer-core/contracts';
import { isLoading, useLoad } from '../../lib/use-load';
import { sessionRequest } from '../../lib/auth/session-request';

/** GET /api/auth/profile as the signed-in borrower; null when it failed (a 401 also ends the session). */
export async function getProfile(signal?: AbortSignal): Promise<Profile | null> {
  const result = await sessionRequest(authEndpoints.profile, { signal });
  return result.isError ? null : result.data;
}

/** The borrower's profile from the API, null until it has arrived (or when it could not be had). */
export function useProfile(): Profile | null {
  const { state } = useLoad(getProfile, []);
  return isLoading(state) ? null : state;
}
