import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { assertAccessible } from './accessibility.js';
import { DESKTOP, PHONE, screenshot } from './browser.js';

/** The code a borrower's authenticator app shows for `secret`, `stepsAhead` 30-second steps from now. */
export function authenticatorCode(secret: string, stepsAhead = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + stepsAhead * 30_000,
  });
}

/**
 * Axe-clean at both sizes (and screenshots of both, when asked for). `sweepDesktop: false` where another
 * test sweeps the same screen and state at a desktop's size: here only the phone's is swept.
 */
export async function captureBothSizes(
  page: Page,
  name: string,
  { sweepDesktop = true }: { sweepDesktop?: boolean } = {},
): Promise<void> {
  if (sweepDesktop) await assertAccessible(page, name);
  await screenshot(page, name);
  await page.setViewportSize(PHONE);
  await assertAccessible(page, `${name} (phone)`);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

/** The code a mailed email code carries, first thing in its subject ("123456 is your …"). */
export const emailCodeIn = (subject: string) => /^(\d{6}) is your /.exec(subject)?.[1];
