import type { Page } from 'playwright-core';

// What the getting-back-in browser tests share (forgot password, reset, sign-in by e-mailed link).

export const INVALID_LINK = 'This link has expired or has already been used.';
// Enough link requests per address for every test of a file (the default is 3 per window and client).
export const LINK_LIMITS_ENV = {
  EMAIL_LINK_LIMIT_PER_ADDRESS_AND_CLIENT: '50',
  EMAIL_LINK_FLOOD_LIMIT_PER_ADDRESS: '50',
};

export const withText = (text: string) => ({ hasText: text });
export const onPath = (path: string) => (url: URL) => url.pathname === path;

/** Fills a link-request form (forgot password, sign-in link) and waits for the confirmation. */
export async function requestLink(page: Page, path: string, email: string, submitLabel: string) {
  await page.goto(path);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: submitLabel }).click();
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
}

/** The lender's name as the portal shows it (the footer's notice). */
export async function lenderName(page: Page): Promise<string> {
  const notice = (await page.getByTestId('footer-notice').textContent()) ?? '';
  return notice.replace(/^© \d{4} /, '').replace(/\. All rights reserved\.$/, '');
}
