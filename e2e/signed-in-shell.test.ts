import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { routes } from '@customer-core/contracts';
import type { Locator, Page } from 'playwright-core';
import { assertAccessible } from './support/accessibility.js';
import { collectPageErrors, focusReturnsTo, screenshot, screenshotsAtBothSizes } from './support/browser.js';
import { DESKTOP, OPERATOR_ENV, PHONE, borrowerDocuments, borrowerLoans } from './support/loans.js';
import { DEMO, openPortal, signInBySession, type Portal } from './support/portal.js';

// The signed-in area's shell: who is signed in, the borrower's areas and the account menu, on a
// desktop and on a phone, by mouse and by keyboard.

const DEMO_NAME = `${DEMO.firstName} ${DEMO.lastName}`;
/** The Loans screen's code, which the build splits off and the portal loads on demand. */
const LOANS_SCREEN_CODE = /\/assets\/loans-screen-[\w-]+\.js$/;
const onPath = (path: string) => (url: URL) => url.pathname === path;
/** Escape closes the menu and gives the focus back to the button that opened it. */
async function closeByEscape(menu: Locator, trigger: Locator) {
  await menu.page().keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  await focusReturnsTo(trigger, 'focus back on the trigger');
}

/** The menu's item of that name once it has the focus (menus focus their first item as they open). */
const focusedItem = (menu: Locator, name: string) =>
  menu.getByRole('menuitem', { name, exact: true }).and(menu.page().locator(':focus'));

describe('signed-in shell (browser)', () => {
  let portal: Portal;
  // Signed in once, on the home: the desktop test's page, then the phone's.
  let page: Page;
  let errors: string[];
  before(async () => {
    portal = await openPortal(OPERATOR_ENV);
    ({ page } = await portal.newPage());
    errors = collectPageErrors(page);
    await signInBySession(portal, page);
  });
  after(() => portal?.close());

  it('on a desktop: a full-width header with the logo home, the areas and the account menu', async () => {
    const header = page.getByTestId('app-header');
    await header.waitFor();

    // The logo stays in the portal: it leads to the borrower's home.
    assert.equal(
      await header.getByRole('link', { name: /home$/ }).getAttribute('href'),
      routes.dashboard.path,
    );
    // The marketing panel and its sample phone belong to the public screens only.
    assert.equal(await page.locator('.brand-panel').count(), 0);
    assert.equal(await page.getByRole('img', { name: /phone/i }).count(), 0);
    const mainWidth = (await page.locator('main').boundingBox())!.width;
    assert.ok(mainWidth > 1000, `the screen takes the width (${mainWidth}px)`);

    const nav = header.getByRole('navigation', { name: 'Your account' });
    assert.equal(await nav.getByRole('link', { name: 'Home' }).getAttribute('aria-current'), 'page');
    assert.equal(await page.getByTestId('signed-in-name').innerText(), DEMO_NAME);
    // (The home's accessibility on a desktop: the loans tests check it, with the loans loaded.)
    await screenshot(page, 'shell-home');

    // The account menu, by keyboard: Enter opens it on its first item, Escape closes it back on the trigger.
    const trigger = header.getByRole('button', { name: /account menu/ });
    await trigger.focus();
    await screenshot(page, 'shell-account-trigger-focus');
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    assert.equal(await trigger.getAttribute('aria-expanded'), 'true');
    await menu.getByText(DEMO.email).waitFor();
    await focusedItem(menu, 'Sign-in and security').waitFor();
    await assertAccessible(page, 'account menu open');
    await screenshot(page, 'shell-account-menu-open');
    await closeByEscape(menu, trigger);

    await nav.getByRole('link', { name: 'Loans' }).hover();
    await screenshot(page, 'shell-nav-hover');

    // A slow network: the Loans screen's code is held back. The click shows at once where it goes
    // (the bar along the top, the Loans link marked) while the home stays, until the screen arrives.
    let releaseScreen = () => {};
    const screenAsked = new Promise<void>((asked) => {
      void page.route(LOANS_SCREEN_CODE, (route) => {
        releaseScreen = () => void route.continue();
        asked();
      });
    });
    await nav.getByRole('link', { name: 'Loans' }).click();
    await screenAsked;
    const progress = page.getByRole('progressbar', { name: 'Loading the page' });
    await progress.waitFor();
    await nav.locator('a[data-pending]', { hasText: 'Loans' }).waitFor();
    assert.equal(await page.getByRole('heading', { level: 1, name: /^Hello/ }).count(), 1, 'the home stays');
    await assertAccessible(page, 'navigation under way');
    await screenshot(page, 'shell-navigation-progress');
    releaseScreen();
    await page.waitForURL(onPath(routes.loans.path));
    await page.getByRole('heading', { level: 1, name: 'Your loans' }).waitFor();
    await progress.waitFor({ state: 'detached' });
    await page.unroute(LOANS_SCREEN_CODE);
    assert.equal(await nav.getByRole('link', { name: 'Loans' }).getAttribute('aria-current'), 'page');
    await page.getByTestId('loans').and(page.locator('[data-state="loaded"]')).waitFor();
    await assertAccessible(page, 'loans page');
    await screenshot(page, 'shell-loans');
    assert.deepEqual(errors, []);
  });

  it('on a phone: a compact bar whose one menu opens and closes by keyboard', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(routes.dashboard.path);
    const header = page.getByTestId('app-header');
    await header.waitFor();
    // The inline navigation and the name give way to one menu.
    assert.equal(await header.getByRole('navigation').count(), 0);
    const trigger = header.getByRole('button', { name: 'Menu', exact: true });
    const bar = (await header.boundingBox())!;
    assert.ok(bar.height <= 72, `a compact bar (${bar.height}px)`);
    await assertAccessible(page, 'home on a phone');
    await screenshot(page, 'shell-home-phone');

    await trigger.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    assert.deepEqual(await menu.getByRole('menuitem').allInnerTexts(), [
      'Home',
      'Loans',
      'Documents',
      'Sign-in and security',
      'Bank accounts',
      'Sign out',
    ]);
    // The menu focuses its first item once it has opened: wait for that, not just for the menu.
    await focusedItem(menu, 'Home').waitFor();
    await assertAccessible(page, 'phone menu open');
    await screenshot(page, 'shell-phone-menu-open');
    await closeByEscape(menu, trigger);

    // Arrow down to Loans, Enter: the menu closes on the Loans page.
    await page.keyboard.press('Enter');
    await focusedItem(menu, 'Home').waitFor();
    await page.keyboard.press('ArrowDown');
    await focusedItem(menu, 'Loans').waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(onPath(routes.loans.path));
    await menu.waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1, name: 'Your loans' }).waitFor();
    await page.getByTestId('loans').and(page.locator('[data-state="loaded"]')).waitFor();
    await screenshot(page, 'shell-loans-phone');
  });

  it('shows an address it does not have inside the shell, with the way to the borrower’s home', async () => {
    await page.goto('/ui/dashboard/no-such-page');
    const view = page.getByTestId('not-found');
    await view.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.getByTestId('app-header').waitFor();
    assert.equal(await page.getByRole('link', { name: 'Go to sign in' }).count(), 0);
    await assertAccessible(page, 'signed-in page not found');
    await screenshotsAtBothSizes(page, 'shell-not-found');
    await view.getByRole('link', { name: 'Go to your account' }).click();
    await page.waitForURL(onPath(routes.dashboard.path));
    await page.getByRole('heading', { level: 1, name: /^Hello/ }).waitFor();
    assert.deepEqual(errors, []);
  });

  it('keeps every signed-in screen within a phone’s width, at 390 and 320 pixels', async () => {
    // Every screen of the signed-in shell, with the demo borrower's data: each loan, a document, the
    // shell's own pages, the screens shared with visitors and a page that does not exist.
    await page.goto(routes.loans.path);
    const loans = await borrowerLoans(page);
    const documentId = (await borrowerDocuments(page)).loans[0]?.documents[0]?.id;
    assert.ok(documentId, 'the demo borrower has a document');
    const paths = [
      routes.dashboard.path,
      routes.loans.path,
      ...loans.map((loan) => routes.loanDetails.href({ loanId: loan.id })),
      ...loans.map((loan) => routes.loanCheckout.href({ loanId: loan.id })),
      routes.documents.path,
      routes.document.href({ documentId }),
      routes.account.path,
      routes.emailChange.href({ token: 'not-a-token' }),
      routes.about.path,
      '/ui/dashboard/no-such-page',
    ];
    // Each screen loaded once on a phone, then measured at both widths: the layout follows the viewport.
    const overflows: string[] = [];
    for (const path of paths) {
      await page.setViewportSize(PHONE);
      await page.goto(path);
      await screenSettled(page);
      for (const width of [390, 320]) {
        await page.setViewportSize({ width, height: 844 });
        const { scrollWidth, over } = await page.evaluate(() => {
          const limit = document.documentElement.clientWidth;
          // The innermost of what sticks out, to say where to look.
          const outside = [...document.querySelectorAll('body *')]
            .filter((node) => node.getBoundingClientRect().right > limit + 0.5)
            .slice(-3)
            .map((node) => `${node.tagName.toLowerCase()}.${[...node.classList].join('.')}`);
          return { scrollWidth: document.documentElement.scrollWidth, over: outside };
        });
        if (scrollWidth > width)
          overflows.push(`${path} at ${width}px: ${scrollWidth}px wide (${over.join(', ')})`);
      }
    }
    await page.setViewportSize(DESKTOP);
    assert.deepEqual(overflows, []);
    assert.deepEqual(errors, []);
  });
});

/** A screen has shown its heading and has nothing loading any more. */
async function screenSettled(page: Page) {
  await page.locator('main h1').first().waitFor();
  await page.waitForFunction(
    () => !document.querySelector('main [data-testid="loading"], main [data-state="loading"], main .spinner'),
  );
}
