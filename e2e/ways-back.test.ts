import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { routes } from '@customer-core/contracts';
import type { Page } from 'playwright-core';
import { assertAccessible } from './support/accessibility.js';
import { screenshotsAtBothSizes } from './support/browser.js';
import { OPERATOR_ENV } from './support/loans.js';
import { DEMO, openPortal, signInBySession, type Portal } from './support/portal.js';

// About and the generic error screen have no button of their own (the error screen by the spec): the
// layout around them is the way back, the signed-in shell for a borrower, the public layout otherwise.

const onPath = (path: string) => (url: URL) => url.pathname === path;
const GENERIC_ERROR_BODY =
  /^There was an error processing your request\. Please try again and if the error persists contact us at /;

/** The generic error screen exactly as the spec has it: its title and text, and no button. */
async function assertGenericError(page: Page) {
  const screen = page.getByTestId('generic-error');
  await screen.getByRole('heading', { name: 'Something went wrong' }).waitFor();
  assert.match(await screen.locator('p').innerText(), GENERIC_ERROR_BODY);
  assert.equal(await screen.getByRole('button').count(), 0);
  assert.equal(await screen.getByRole('link').count(), 1, 'only the phone number');
}

describe('ways back from About and errors (browser)', () => {
  let portal: Portal;
  before(async () => {
    portal = await openPortal(OPERATOR_ENV);
  });
  after(() => portal?.close());

  it('leads a visitor from About (the app’s name and version) and from an error back to sign-in through the public layout', async () => {
    const { name, version } = JSON.parse(
      readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
    ) as { name: string; version: string };
    assert.equal(name, 'customer-core');
    assert.equal(version, '2.4.2');
    const { page } = await portal.newPage();
    await page.goto(routes.about.path);
    await page.getByRole('heading', { name: 'About' }).waitFor();
    const panel = page.getByRole('region', { name: 'About' });
    await panel.getByText(name).waitFor();
    await panel.getByText(version).waitFor();
    await assertAccessible(page, 'about, signed out');
    await screenshotsAtBothSizes(page, 'about-public');
    const footer = page.getByRole('navigation', { name: 'Footer' });
    await footer.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(onPath(routes.signIn.path));
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    // Sign-in leads nowhere new from its own footer.
    assert.equal(await footer.getByRole('link', { name: 'Sign in' }).count(), 0);

    await page.goto(`${routes.loginHandler.path}?error=login_required&error_description=No+session&state=x`);
    await assertGenericError(page);
    await assertAccessible(page, 'generic error, public');
    await screenshotsAtBothSizes(page, 'generic-error-public');
    await footer.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(onPath(routes.signIn.path));
  });

  it('shows a signed-in borrower About and an error inside the signed-in shell', async () => {
    const { page } = await portal.newPage();
    await signInBySession(portal, page);
    await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'About' }).click();
    await page.waitForURL(onPath(routes.about.path));
    await page.getByRole('heading', { name: 'About' }).waitFor();
    const header = page.getByTestId('app-header');
    await header.waitFor();
    assert.equal(await page.locator('.brand-panel').count(), 0, 'no marketing panel');
    assert.equal(await page.getByTestId('signed-in-name').innerText(), `${DEMO.firstName} ${DEMO.lastName}`);
    await assertAccessible(page, 'about, signed in');
    await screenshotsAtBothSizes(page, 'about-signed-in');
    await header.getByRole('link', { name: 'Home', exact: true }).click();
    await page.waitForURL(onPath(routes.dashboard.path));

    // The Loans screen's code fails to download: the generic error shows inside the shell.
    await page.route(/\/assets\/loans-screen-[^/]*\.js$/, (route) => route.abort());
    await header.getByRole('link', { name: 'Loans' }).click();
    await page.waitForURL(onPath(routes.loans.path));
    await assertGenericError(page);
    await assertAccessible(page, 'generic error, signed in');
    await screenshotsAtBothSizes(page, 'generic-error-signed-in');
    await header.getByRole('link', { name: 'Home', exact: true }).click();
    await page.waitForURL(onPath(routes.dashboard.path));
    await page.getByRole('heading', { name: `Hello, ${DEMO.firstName}` }).waitFor();
  });
});
