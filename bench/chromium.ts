import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

// The bench's Chromium: Debian's (never a downloaded one), headless, with nothing reaching out to the
// network on its own, as the browser tests run it.

/** The browser a borrower has where it is installed, else the headless shell the tests install. */
export function chromiumPath(): string | undefined {
  return [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-headless-shell'].find(
    (p): p is string => !!p && existsSync(p),
  );
}

export function launchChromium(executablePath: string): Promise<Browser> {
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
