import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';

/**
 * Opens a row of the account page (its section, by test id) with its button, unless it is open, and
 * waits for its form. Answers the row's button, where the focus goes back when the form closes.
 */
export async function openAccountRow(section: Locator): Promise<Locator> {
  const button = section.locator('button[aria-expanded]').first();
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  await section.locator('[data-testid$="-panel"]').waitFor();
  assert.equal(await button.getAttribute('aria-expanded'), 'true');
  return button;
}
