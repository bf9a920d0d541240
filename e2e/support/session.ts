import { apiPaths, routes } from '@customer-core/contracts';
import type { Page } from 'playwright-core';

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
  const response = await post(baseUrl, apiPaths.auth.validate, { access_token: token });
  await response.body?.cancel();
  return response.status;
}

/** Signs the session out on the server only, as another device would: the page knows nothing of it. */
export async function revokeOnServer(baseUrl: string, token: string): Promise<void> {
  const response = await post(baseUrl, apiPaths.auth.logout, { access_token: token });
  if (response.status !== 200) throw new Error(`logout answered ${response.status}`);
}

/** Moves the mouse about every half second, in each page, for `durationMs`: a borrower at work. */
export async function keepActive(pages: Page[], durationMs: number): Promise<void> {
  const until = Date.now() + durationMs;
  for (let step = 0; Date.now() < until; step += 1) {
    for (const page of pages) await page.mouse.move(200 + (step % 2) * 40, 300 + (step % 3) * 20);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

export function onSignIn(url: URL): boolean {
  return url.pathname === routes.signIn.path;
}

export const SESSION_ENDED_NOTICE = 'Your session has ended. Please sign in again.';
