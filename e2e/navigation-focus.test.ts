import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { routes } from '@customer-core/contracts';
import type { Page } from 'playwright-core';
import { collectPageErrors, PHONE, screenshot } from './support/browser.js';
import { borrowerLoans, OPERATOR_ENV } from './support/loans.js';
import { DEMO, openPortal, signInBySession, type Portal } from './support/portal.js';

// After a route change the focus is on the new page's main heading (screen readers read it out, the
// next Tab starts at the top of the page) and the document title names the page.

const LENDER = 'Main Street Funding';
const NOWHERE = '/ui/dashboard/no-such-page';
const onPath = (path: string) => (url: URL) => url.pathname === path;

/** Waits until the focus is on the page's h1 with this name, and says what it is. */
async function headingFocused(page: Page, name: string | RegExp, after = String(name)) {
  const heading = page.locator('main h1').filter({ hasText: name });
  await heading.waitFor();
  const focused = await page
    .waitForFunction(() => document.activeElement?.matches('main h1') === true, undefined, { timeout: 5_000 })
    .then(
      () => heading.evaluate((node) => node === document.activeElement),
      () => false,
    );
  const where = await page.evaluate(() => {
    const node = document.activeElement;
    return node ? `${node.tagName.toLowerCase()} "${(node.textContent ?? '').trim().slice(0, 40)}"` : 'none';
  });
  assert.ok(focused, `after ${after}: the focus is on ${where}, not the heading ${String(name)}`);
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

    // The interactive form in place first: a click as the painted form is swapped for it can be lost
    // (a busy CI machine once clicked in that moment).
    await page.locator('form[data-ready="true"]').waitFor();
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

  it('moves the focus to the heading on every public page reached in the portal, forward and back', async () => {
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    // The first page of a visit (an address the portal does not have): the focus is left alone.
    await page.goto('/no-such-page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement === document.body), true);
    assert.equal(await page.title(), `Page not found | ${LENDER}`);

    const steps: [string, () => Promise<unknown>, string, string | RegExp][] = [
      [
        'Go to sign in',
        () => page.getByRole('link', { name: 'Go to sign in' }).click(),
        routes.signIn.path,
        'Welcome Back',
      ],
      [
        'Forgot Password?',
        () => page.getByRole('link', { name: 'Forgot Password?' }).click(),
        routes.forgotPassword.path,
        /password/i,
      ],
      [
        'Back to sign in',
        () => page.getByRole('link', { name: 'Back to sign in' }).click(),
        routes.signIn.path,
        'Welcome Back',
      ],
      [
        'Apply For a Loan',
        () => page.getByRole('link', { name: 'Apply For a Loan' }).click(),
        routes.startApplication.path,
        /./,
      ],
      [
        'About',
        () => page.getByRole('contentinfo').getByRole('link', { name: 'About' }).click(),
        routes.about.path,
        'About',
      ],
      [
        'Sign in',
        () => page.getByRole('contentinfo').getByRole('link', { name: 'Sign in' }).click(),
        routes.signIn.path,
        'Welcome Back',
      ],
    ];
    const visited: [string, string | RegExp][] = [['/no-such-page', 'Page not found']];
    for (const [what, go, path, heading] of steps) {
      await go();
      await page.waitForURL(onPath(path));
      await headingFocused(page, heading, what);
      visited.push([path, heading]);
    }
    // Back through every page, then forward again.
    for (let i = visited.length - 2; i >= 0; i--) {
      await page.goBack();
      await page.waitForURL(onPath(visited[i]![0]));
      await headingFocused(page, visited[i]![1], `back to ${visited[i]![0]}`);
    }
    for (let i = 1; i < visited.length; i++) {
      await page.goForward();
      await page.waitForURL(onPath(visited[i]![0]));
      await headingFocused(page, visited[i]![1], `forward to ${visited[i]![0]}`);
    }
    assert.deepEqual(errors, []);
  });

  it('moves the focus to the heading on every signed-in page reached in the portal, forward and back', async () => {
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    const [active] = (await borrowerLoans(await signedInFirst(page))).filter((l) => l.status === 'ACTIVE');
    assert.ok(active, 'the demo borrower has an active loan');
    const header = page.getByTestId('app-header');
    const nav = page.getByRole('navigation', { name: 'Your account' });
    const loanPath = routes.loanDetails.href({ loanId: active.id });
    const steps: [string, () => Promise<unknown>, string, string | RegExp][] = [
      [
        'Go to your account',
        () => page.getByRole('link', { name: 'Go to your account' }).click(),
        routes.dashboard.path,
        `Hello, ${DEMO.firstName}`,
      ],
      ['Loans', () => nav.getByRole('link', { name: 'Loans' }).click(), routes.loans.path, 'Your loans'],
      [
        'a loan',
        () =>
          page
            .getByTestId('loan-card')
            .filter({ hasText: active.reference })
            .getByRole('link', { name: active.product })
            .click(),
        loanPath,
        active.product,
      ],
      [
        'Back to your loans',
        () => page.getByRole('link', { name: 'Back to your loans' }).click(),
        routes.loans.path,
        'Your loans',
      ],
      [
        'Documents',
        () => nav.getByRole('link', { name: 'Documents' }).click(),
        routes.documents.path,
        /documents/i,
      ],
      [
        'a document',
        () => page.getByTestId('documents-loan').first().getByRole('link').first().click(),
        '',
        /./,
      ],
      [
        'Back to your documents',
        () => page.getByRole('link', { name: 'Back to your documents' }).click(),
        routes.documents.path,
        /documents/i,
      ],
      [
        'checkout',
        () =>
          page
            .getByRole('link', { name: /review and sign/i })
            .first()
            .click(),
        routes.loanCheckout.href({ loanId: active.id }),
        /documents/i,
      ],
      [
        'Back to your account',
        () => page.getByRole('link', { name: 'Back to your account' }).click(),
        routes.dashboard.path,
        `Hello, ${DEMO.firstName}`,
      ],
      [
        'account menu',
        async () => {
          await header.getByRole('button', { name: /account menu/ }).click();
          await page.getByRole('menuitem', { name: 'Sign-in and security' }).click();
        },
        routes.account.path,
        /./,
      ],
      [
        'About',
        () => page.getByRole('contentinfo').getByRole('link', { name: 'About' }).click(),
        routes.about.path,
        'About',
      ],
      [
        'Home',
        () => page.getByTestId('lender-logo').click(),
        routes.dashboard.path,
        `Hello, ${DEMO.firstName}`,
      ],
    ];
    const visited: [string, string | RegExp][] = [[NOWHERE, 'Page not found']];
    for (const [what, go, path, heading] of steps) {
      await go();
      if (path) await page.waitForURL(onPath(path));
      else await page.waitForURL((url) => url.pathname.startsWith(`${routes.documents.path}/`));
      await headingFocused(page, heading, what);
      visited.push([new URL(page.url()).pathname, heading]);
    }
    for (let i = visited.length - 2; i >= 0; i--) {
      await page.goBack();
      await page.waitForURL(onPath(visited[i]![0]));
      await headingFocused(page, visited[i]![1], `back to ${visited[i]![0]}`);
    }
    for (let i = 1; i < visited.length; i++) {
      await page.goForward();
      await page.waitForURL(onPath(visited[i]![0]));
      await headingFocused(page, visited[i]![1], `forward to ${visited[i]![0]}`);
    }
    // The phone's menu: the focus goes to the page, not back to the menu's button.
    await page.setViewportSize(PHONE);
    await header.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('menuitem', { name: 'Loans' }).click();
    await page.waitForURL(onPath(routes.loans.path));
    await headingFocused(page, 'Your loans', 'phone menu');
    assert.deepEqual(errors, []);

    async function signedInFirst(p: Page) {
      await signInBySession(portal, p, { path: NOWHERE });
      await p.getByRole('heading', { name: 'Page not found' }).waitFor();
      assert.equal(await p.evaluate(() => document.activeElement === document.body), true);
      return p;
    }
  });
});
