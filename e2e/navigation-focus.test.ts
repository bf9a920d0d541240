import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { routes } from '@customer-core/contracts';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser.js';
import { OPERATOR_ENV } from './support/loans.js';
import { DEMO, openPortal, signInBySession, type Portal } from './support/portal.js';

// After a route change the focus is on the new page's main heading (screen readers read it out, the
// next Tab starts at the top of the page) and the document title names the page.

const LENDER = 'Main Street Funding';
const onPath = (path: string) => (url: URL) => url.pathname === path;

/** Waits until the focus is on the page's h1 with this name, and says what it is. */
async function headingFocused(page: Page, name: string | RegExp) {
  const heading = page.locator('main h1').filter({ hasText: name });
  await heading.waitFor();
  await page.waitForFunction(() => document.activeElement?.matches('main h1') === true, undefined, {
    timeout: 5_000,
  });
  assert.equal(
    await heading.evaluate((node) => node === document.activeElement),
    true,
    `${String(name)} focused`,
  );
  assert.equal(await heading.getAttribute('tabindex'), '-1');
}

describe('focus and title on navigation (browser)', () => {
  let portal: Portal;
  before(async () => {
    portal = await openPortal(OPERATOR_ENV);
  });
  after(() => portal?.close());

  it('moves the focus to the heading of each public page and names it in the title', async () => {
    const { page } = await portal.newPage();
    await page.goto(routes.signIn.path);
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    assert.equal(await page.title(), `Sign in | ${LENDER}`);

    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await page.waitForURL(onPath(routes.forgotPassword.path));
    await headingFocused(page, /password/i);
    assert.notEqual(await page.title(), `Sign in | ${LENDER}`);
    assert.match(await page.title(), new RegExp(`\\| ${LENDER}$`));
    // (The screen as it opens: swept in getting-back-in.test.ts.)
    await screenshot(page, 'focus-forgot-password');

    await page.goBack();
    await headingFocused(page, 'Welcome Back');
    assert.equal(await page.title(), `Sign in | ${LENDER}`);
    // The heading said it: the live region stays quiet.
    assert.equal(await page.getByTestId('route-announcer').innerText(), '');
  });

  it('leaves the focus alone on the first page of a visit, then moves it to the heading of each signed-in page and names it in the title', async () => {
    const { page } = await portal.newPage();
    // The home opened by its address: the first page of a new document.
    await signInBySession(portal, page);
    await page.getByRole('heading', { name: `Hello, ${DEMO.firstName}` }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement === document.body), true);
    const homeTitle = await page.title();
    assert.match(homeTitle, new RegExp(`\\| ${LENDER}$`));

    const nav = page.getByRole('navigation', { name: 'Your account' });
    await nav.getByRole('link', { name: 'Loans' }).click();
    await page.waitForURL(onPath(routes.loans.path));
    await headingFocused(page, 'Your loans');
    assert.equal(await page.title(), `Your loans | ${LENDER}`);
    await screenshot(page, 'focus-loans');

    await page.getByTestId('lender-logo').click();
    await page.waitForURL(onPath(routes.dashboard.path));
    await headingFocused(page, `Hello, ${DEMO.firstName}`);
    assert.equal(await page.title(), homeTitle);
    assert.equal(await page.getByTestId('route-announcer').innerText(), '');
    await screenshot(page, 'focus-home');
  });
});
