import { authEndpoints, type TokenRefreshRequest } from '@customer-core/contracts';
import { apiClient } from '../api-client';
import { readRawAccessToken, storeAccessToken } from '../product-session';

export type RefreshOutcome =
  /** A newer token is stored: this tab's refresh, or another tab's that finished first. */
  | { kind: 'refreshed'; token: string }
  /** The API refused the token (expired, revoked, session over...): the session has ended. */
  | { kind: 'refused' }
  /** Nothing is stored any more: the session ended elsewhere. */
  | { kind: 'gone' }
  /** The server could not be reached or answered oddly: try again later. */
  | { kind: 'failed' };

// Tabs share the stored token: one refresh at a time across all of them (Web Locks), and a tab that
// waited for the lock takes the token the other one stored instead of refreshing it again. A write
// to localStorage reaches other tabs a moment later, so the lock manager (which every tab sees at
// once) also carries the news: the refreshing tab holds a "refreshed" lock named after the old token
// for a while.
const LOCK = 'customer-core.token-refresh';
const REFRESHED_LOCK_PREFIX = 'customer-core.token-refreshed.';
const REFRESHED_HOLD_MS = 10_000;
const CATCH_UP_MS = 2_000;
const CATCH_UP_STEP_MS = 50;

// The signature tells tokens apart without putting a whole token in a lock name.
const refreshedLockName = (token: string) => `${REFRESHED_LOCK_PREFIX}${token.slice(-32)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Holds the "refreshed" lock of `old` for a while, resolving once it is held. */
function announceRefreshed(locks: LockManager, old: string): Promise<void> {
  return new Promise((held) => {
    void locks.request(refreshedLockName(old), () => {
      held();
      return sleep(REFRESHED_HOLD_MS);
    });
  });
}

/** Another tab refreshed `known` just now: wait for its token to show in this tab's storage. */
async function catchUp(known: string): Promise<RefreshOutcome> {
  for (let waited = 0; waited < CATCH_UP_MS; waited += CATCH_UP_STEP_MS) {
    const stored = readRawAccessToken();
    if (stored !== known) return stored ? { kind: 'refreshed', token: stored } : { kind: 'gone' };
    await sleep(CATCH_UP_STEP_MS);
  }
  return { kind: 'failed' };
}

async function refreshStored(known: string, locks?: LockManager): Promise<RefreshOutcome> {
  const stored = readRawAccessToken();
  if (!stored) return { kind: 'gone' };
  if (stored !== known) return { kind: 'refreshed', token: stored };
  if (locks) {
    const { held = [] } = await locks.query();
    if (held.some((lock) => lock.name === refreshedLockName(known))) return catchUp(known);
  }
  const body: TokenRefreshRequest = { token: stored };
  const result = await apiClient.call(authEndpoints.tokenRefresh, { body: body });
  if (result.isError) {
    return result.status === 400 || result.status === 401 ? { kind: 'refused' } : { kind: 'failed' };
  }
  const { access_token: refreshed } = result.data;
  // Signed out (or in again) meanwhile: never bring the old session back.
  const now = readRawAccessToken();
  if (now !== stored) return now ? { kind: 'refreshed', token: now } : { kind: 'gone' };
  storeAccessToken(refreshed);
  if (locks) await announceRefreshed(locks, stored);
  return { kind: 'refreshed', token: refreshed };
}

/** Refreshes `known`, the token this tab holds, unless another tab already replaced it. */
export async function refreshAccessToken(known: string): Promise<RefreshOutcome> {
  // Web Locks need a secure context; without them each tab refreshes on its own, and two tabs that
  // present the same token end the session (the API takes a token presented twice for a stolen one).
  const locks = typeof navigator.locks?.request === 'function' ? navigator.locks : undefined;
  if (!locks) return refreshStored(known);
  return await locks.request(LOCK, () => refreshStored(known, locks));
}
