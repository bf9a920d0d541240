import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../test-results/screenshots');

/** Debian's Chromium, headless, with nothing reaching out to the network on its own. */
export async function launchBrowser(): Promise<Browser> {
  // The test command (scripts/run-tests.mjs) finds or installs Chromium and names it here.
  const executablePath = process.env.CHROMIUM_PATH;
  if (!executablePath || !existsSync(executablePath)) {
    throw new Error('Chromium not found: run browser tests with npm test, or set CHROMIUM_PATH');
  }
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Kept for people to look at (test-results/screenshots), not compared by the tests. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Fails the test on any error the page logs or throws that the test did not expect. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
}
