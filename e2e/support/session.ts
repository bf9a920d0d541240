import { ACCESS_TOKEN_STORAGE_KEY, authEndpoints, routes } from '@customer-core/contracts';
import type { BrowserContext, Page } from 'playwright-core';
import {
  DEFAULT_WARNING_SECONDS,
  refreshPoint as refreshAt,
  warningPoint as warningAt,
} from '../../apps/web/src/lib/session/session-timing.js';

// Helpers for the session tests: the product token's claims, the API's view of a token, and a
// borrower who keeps moving the mouse.

export interface SessionClaims {
  sid: string;
  iat: number;
  exp: number;
  jti: string;
}

/** The payload of a product access token, read without checking it (the API checks). */
export function claimsOf(token: string | null): SessionClaims {
  const payload = token?.split('.')[1];
  if (!payload) throw new Error(`not a JWT: ${token}`);
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SessionClaims;
}

function post(baseUrl: string, path: string, body: unknown) {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The status /api/auth/validate answers for the token. */
export async function validationStatus(baseUrl: string, token: string): Promise<number> {
  const response = await post(baseUrl, authEndpoints.validate.path, { access_token: token });
  await response.body?.cancel();
  return response.status;
}

/** Signs the session out on the server only, as another device would: the page knows nothing of it. */
export async function revokeOnServer(baseUrl: string, token: string): Promise<void> {
  const response = await post(baseUrl, authEndpoints.logout.path, { access_token: token });
  if (response.status !== 200) throw new Error(`logout answered ${response.status}`);
}

/**
 * Installs Playwright's clock in the context's pages: it runs as usual until a test moves it on. A
 * refresh request waits until the page's clock is back in step with the server's, so that the new
 * token's lifetime starts, to the page, where the server started it.
 */
export async function installPageClock(context: BrowserContext): Promise<void> {
  await context.clock.install();
  await context.route(`**${authEndpoints.tokenRefresh.path}`, async (route) => {
    await context.clock.setSystemTime(Date.now());
    await route.continue();
  });
}

/**
 * Jumps the page's clock forward to `at` (ms since the epoch), firing the timers due on the way; the
 * server's clock does not move.
 */
export async function moveClockTo(page: Page, at: number): Promise<void> {
  const now = await page.evaluate(() => Date.now());
  if (at > now) await page.context().clock.fastForward(Math.ceil(at - now));
}

/** Waits until the page holds a product token other than `held` (it refreshed, or adopted one). */
export async function storedTokenChanges(page: Page, held: string): Promise<void> {
  await page.waitForFunction(
    ([key, token]) => {
      const stored = localStorage.getItem(key);
      return stored !== null && stored !== token;
    },
    [ACCESS_TOKEN_STORAGE_KEY, held] as const,
  );
}

/** The portal's own rules for when a token is refreshed and its warning shown (default warning). */
export const refreshPoint = (claims: SessionClaims) => refreshAt(claims, DEFAULT_WARNING_SECONDS);
export const warningPoint = (claims: SessionClaims) => warningAt(claims, DEFAULT_WARNING_SECONDS);

export function onSignIn(url: URL): boolean {
  return url.pathname === routes.signIn.path;
}

export const SESSION_ENDED_NOTICE = 'Your session has ended. Please sign in again.';

/**
 * The next call to the API fails for a signed-out device: it lands on sign-in with the notice. (A call
 * the page made by itself meanwhile may have taken it there already.)
 */
export async function expectSignedOut(page: Page): Promise<void> {
  const documents = page.getByRole('navigation').getByRole('link', { name: 'Documents' }).first();
  const notice = page.getByRole('status').filter({ hasText: SESSION_ENDED_NOTICE });
  await documents.or(notice).first().waitFor();
  if (await documents.isVisible()) await documents.click();
  await page.waitForURL(onSignIn, { timeout: 10_000 });
  await notice.waitFor();
}
