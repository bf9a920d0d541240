import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../test-results/screenshots');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The test command (scripts/run-tests.mjs) finds or installs Chromium and names it here: its headless
 * shell (CHROMIUM_PATH), and the browser itself (CHROMIUM_BROWSER_PATH) for a profile's settings.
 */
function chromiumPath(variable: 'CHROMIUM_PATH' | 'CHROMIUM_BROWSER_PATH' = 'CHROMIUM_PATH'): string {
  const executablePath = process.env[variable];
  if (!executablePath || !existsSync(executablePath)) {
    throw new Error(`Chromium not found: run browser tests with npm test, or set ${variable}`);
  }
  return executablePath;
}

/** Debian's Chromium (its headless shell, named by the test command), nothing reaching out on its own. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ARGS });
}

/**
 * Chromium set to "Block third-party cookies" (its profile's `cookie_controls_mode` 1; 0 would allow
 * them), as a borrower's browser may be. The browser contexts it makes follow its profile's setting.
 * The browser itself, not the headless shell, which has no such setting.
 */
export async function launchBrowserBlockingThirdPartyCookies(): Promise<{
  browser: Browser;
  close(): Promise<void>;
}> {
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'customer-core-chromium-'));
  mkdirSync(path.join(userDataDir, 'Default'));
  writeFileSync(
    path.join(userDataDir, 'Default', 'Preferences'),
    JSON.stringify({ profile: { cookie_controls_mode: 1 } }),
  );
  const removeProfile = () => rmSync(userDataDir, { recursive: true, force: true });
  try {
    const profile = await chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath('CHROMIUM_BROWSER_PATH'),
      args: ARGS,
    });
    const browser = profile.browser();
    if (!browser) throw new Error('Chromium gave no browser for its profile');
    return {
      browser,
      async close() {
        await profile.close();
        removeProfile();
      },
    };
  } catch (error) {
    removeProfile();
    throw error;
  }
}

/** A desktop's viewport, the one every test page opens with, and a phone's. */
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/**
 * Screenshots are for people to look at (test-results/screenshots), and nothing compares them: so they
 * are taken only when asked for, with `SCREENSHOTS=1 npm run test:e2e`, and cost a run nothing else.
 */
const SCREENSHOTS_WANTED = process.env.SCREENSHOTS === '1';

export async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS_WANTED) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Taken from the page's top, then scrolled back: a full-page capture draws what is fixed or sticky
  // (the signed-in header, a dialog's overlay) where the page was scrolled, in the middle of the image.
  const scrolledTo = await page.evaluate(() => {
    const y = window.scrollY;
    window.scrollTo(0, 0);
    return y;
  });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  await page.evaluate((y) => window.scrollTo(0, y), scrolledTo);
}

/** A screenshot at a desktop's size (`<name>.png`) and a phone's (`<name>-phone.png`), when asked for. */
export async function screenshotsAtBothSizes(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS_WANTED) return;
  const initial = page.viewportSize() ?? DESKTOP;
  await page.setViewportSize(DESKTOP);
  await screenshot(page, name);
  await page.setViewportSize(PHONE);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize(initial);
}

/** What the pages of a portal's browser contexts say when the Content-Security-Policy refuses something. */
export const CSP_VIOLATION = 'Content-Security-Policy violation:';

/**
 * Run in every page before its own scripts (a browser context's init script): each thing the page's
 * Content-Security-Policy refuses (an inline style, a script, a connection) is logged as an error.
 */
export function reportCspViolations(prefix: string) {
  document.addEventListener('securitypolicyviolation', (event) => {
    console.error(`${prefix} ${event.effectiveDirective} refused ${event.blockedURI} (${event.sourceFile})`);
  });
}

/**
 * Fails the test on any error the page throws that the test did not expect, and on anything the page's
 * Content-Security-Policy refused (logged by `reportCspViolations`, set on every portal's page).
 */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.text().startsWith(CSP_VIOLATION)) errors.push(message.text());
  });
  return errors;
}

/** What the page shows, for a failure to say what came instead of what was waited for. */
export function shownText(page: Page): Promise<string> {
  return page.evaluate(() => document.body.innerText).catch(() => '(no page)');
}

/**
 * Holds that the focus is back on `target` once a dialog or menu has closed: it comes back as the
 * layer goes, not always by the time the layer has left the page, so it is waited for first.
 */
export async function focusReturnsTo(target: Locator, what = 'the focus is back'): Promise<void> {
  await target.and(target.page().locator(':focus')).waitFor();
  assert.equal(await target.evaluate((node) => node === document.activeElement), true, what);
}
