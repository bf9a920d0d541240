import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authEndpoints, routes } from '@customer-core/contracts';
import { freePort } from '@customer-core/api/testing';
import { assertAccessible } from './support/accessibility.js';
import { collectPageErrors, screenshot } from './support/browser.js';
import {
  DEMO,
  openPortal,
  readPortalStorage,
  signInAsDemo,
  signInBySession,
  submitSignIn,
  type Portal,
  signOutFromMenu,
} from './support/portal.js';
import {
  SESSION_ENDED_NOTICE,
  claimsOf,
  installPageClock,
  moveClockTo,
  onSignIn,
  refreshPoint,
  revokeOnServer,
  storedTokenChanges,
  validationStatus,
  warningPoint,
} from './support/session.js';

const onDashboard = (url: URL) => url.pathname === routes.dashboard.path;
const WARNING_TITLE = 'Your session is about to end';

// One server for the tests of a session's course: each has a browser context (a device) of its own,
// and ends no session but its own.
describe('a session’s course (browser)', () => {
  let portal: Portal;
  before(async () => {
    portal = await openPortal();
  });
  after(() => portal?.close());

  // The page's clock is Playwright's: it runs as usual and jumps ahead to a refresh or warning point,
  // so no test waits out a token's lifetime. The server's clock does not jump: to it, every token it
  // issued is still valid, and what ends a session here is the page's own reading of the token.
  describe('staying signed in (browser, the page’s clock moved on)', { concurrency: 2 }, () => {
    it('refreshes an active borrower silently at each refresh point: one request per token for both tabs, the other tab adopts it', async () => {
      const { context, page } = await portal.newPage();
      await installPageClock(context);
      const errors = collectPageErrors(page);
      // Each refresh request: what it sent, the token it presents and the status it got.
      const sent: string[] = [];
      const refreshes: Array<Promise<{ presented: string; status: number }>> = [];
      context.on('request', (request) => {
        if (!request.url().endsWith(authEndpoints.tokenRefresh.path)) return;
        sent.push(request.postData() ?? '');
        const presented = (JSON.parse(request.postData() ?? '{}') as { token: string }).token;
        refreshes.push(
          request.response().then((response) => ({ presented, status: response?.status() ?? 0 })),
        );
      });
      await signInBySession(portal, page);
      const other = await context.newPage();
      await other.goto(routes.dashboard.path);
      await other.getByRole('heading', { name: new RegExp(DEMO.firstName) }).waitFor();

      // Both tabs in use through two refresh points, each time past the refresh point and before the
      // warning: input in both tabs, one refreshes, the other adopts (a refresh spends its token:
      // presenting one twice would end the session).
      const refreshInBothTabs = async () => {
        const held = (await readPortalStorage(page)).token!;
        await moveClockTo(page, refreshPoint(claimsOf(held)) + 1_000);
        for (const tab of [page, other]) await tab.mouse.move(200 + refreshes.length * 20, 300);
        for (const tab of [page, other]) await storedTokenChanges(tab, held);
        return held;
      };
      const first = await refreshInBothTabs();
      const firstClaims = claimsOf(first);
      const current = (await readPortalStorage(page)).token!;
      assert.equal((await readPortalStorage(other)).token, current, 'the other tab holds the same token');
      for (const tab of [page, other]) {
        assert.ok(onDashboard(new URL(tab.url())), 'still on the signed-in home');
        assert.equal(await tab.getByRole('alertdialog').count(), 0, 'no warning for an active borrower');
      }
      const claims = claimsOf(current);
      assert.equal(claims.sid, firstClaims.sid, 'the same sign-in session');
      assert.notEqual(claims.jti, firstClaims.jti);
      assert.equal(await validationStatus(portal.baseUrl, current), 200, 'the new token is valid');
      assert.equal(await validationStatus(portal.baseUrl, first), 401, 'the refreshed one is spent');
      assert.deepEqual(sent, [JSON.stringify({ token: first })], 'one refresh request, for both tabs');

      const second = await refreshInBothTabs();
      const answers = await Promise.all(refreshes);
      const third = (await readPortalStorage(page)).token!;
      assert.deepEqual(
        answers,
        [
          { presented: first, status: 200 },
          { presented: second, status: 200 },
        ],
        'one refresh per token, each of the token both tabs held',
      );
      for (const tab of [page, other]) {
        assert.equal((await readPortalStorage(tab)).token, third, 'both tabs hold the same token');
        assert.ok(onDashboard(new URL(tab.url())), 'still signed in');
        await tab.reload();
        await tab.getByRole('heading', { name: new RegExp(DEMO.firstName) }).waitFor();
      }
      assert.equal(await validationStatus(portal.baseUrl, third), 200, 'the newest token works');
      assert.equal(await validationStatus(portal.baseUrl, first), 401, 'a spent token does not');
      assert.deepEqual(errors, []);
    });

    it('warns an idle borrower, keeps the session on "Stay signed in", and ends it with a notice', async () => {
      const { context, page } = await portal.newPage();
      await installPageClock(context);
      const errors = collectPageErrors(page);
      await signInAsDemo(page);
      const page_ = `${routes.dashboard.path}?view=summary#account`;
      await page.goto(page_);
      await page.getByRole('heading', { name: new RegExp(DEMO.firstName) }).waitFor();
      const first = (await readPortalStorage(page)).token!;

      // No input: past the refresh point nothing is refreshed, and the warning comes a minute before
      // the token expires.
      const dialog = page.getByRole('alertdialog', { name: WARNING_TITLE });
      await moveClockTo(page, warningPoint(claimsOf(first)));
      await dialog.waitFor();
      assert.equal((await readPortalStorage(page)).token, first, 'an idle borrower’s token is not refreshed');
      const countdown = dialog.getByTestId('session-expiry-countdown');
      assert.match((await countdown.textContent()) ?? '', /^(1 minute|\d+ seconds?)$/);
      assert.equal(
        await page.evaluate(() => document.activeElement?.textContent),
        'Stay signed in',
        'the safe choice has the focus',
      );
      // Input alone does not close it: the borrower chooses. Seen once the countdown has moved on since
      // the input (the page has handled it), not after a guessed pause.
      const shownBefore = await countdown.textContent();
      await page.mouse.move(50, 50);
      await page.mouse.move(400, 300);
      await context.clock.fastForward(2_000);
      await page.waitForFunction(
        (shown) => document.querySelector('[data-testid="session-expiry-countdown"]')?.textContent !== shown,
        shownBefore,
      );
      assert.ok(await dialog.isVisible(), 'the warning stays up after input');
      await dialog.getByRole('button', { name: 'Stay signed in' }).click();
      await dialog.waitFor({ state: 'detached' });
      const second = (await readPortalStorage(page)).token!;
      assert.notEqual(second, first, 'a new token');
      assert.equal(claimsOf(second).sid, claimsOf(first).sid);

      // Idle again (the click that kept the session does not count as use of the new token): this
      // time the warning runs out.
      await moveClockTo(page, warningPoint(claimsOf(second)));
      await dialog.waitFor();
      assert.equal((await readPortalStorage(page)).token, second, 'no refresh without input');
      await assertAccessible(page, 'session expiry warning');
      await screenshot(page, 'session-expiry-warning');
      await moveClockTo(page, claimsOf(second).exp * 1000);
      await page.waitForURL(onSignIn);
      const notice = page.getByRole('status').filter({ hasText: SESSION_ENDED_NOTICE });
      await notice.waitFor();
      assert.equal(await page.getByRole('alert').count(), 0, 'a notice, not an error');
      assert.deepEqual(await readPortalStorage(page), { token: null, profile: null });
      // The token manager is cleared once its (lazily loaded) client is there.
      await page.waitForFunction(() => [null, '{}'].includes(localStorage.getItem('okta-token-storage')));
      await assertAccessible(page, 'sign-in with the session-ended notice');
      await screenshot(page, 'sign-in-session-ended');

      // Back to where the borrower was, with the page's clock back in step (the identity provider's
      // tokens are checked against it).
      await context.clock.setSystemTime(Date.now());
      await submitSignIn(page, DEMO.email, DEMO.password);
      await page.waitForURL(onDashboard);
      const landed = new URL(page.url());
      assert.equal(`${landed.pathname}${landed.search}${landed.hash}`, page_);
      assert.deepEqual(errors, []);
    });
  });

  describe('signing out everywhere (browser)', () => {
    it('signs every tab out when one signs out, without a reload', async () => {
      const { context, page: first } = await portal.newPage();
      await signInBySession(portal, first);
      const second = await context.newPage();
      await second.goto(routes.dashboard.path);
      await second.getByRole('heading', { name: new RegExp(DEMO.firstName) }).waitFor();
      await second.evaluate(() => Object.assign(window, { sameDocument: true }));

      await signOutFromMenu(first);
      await second.waitForURL(onSignIn, { timeout: 5_000 });
      await second.getByRole('heading', { name: 'Welcome Back' }).waitFor();
      assert.equal(await second.evaluate(() => 'sameDocument' in window), true, 'no reload');
      assert.equal(await second.getByText(SESSION_ENDED_NOTICE).count(), 0, 'signed out, not timed out');
      await first.waitForURL(onSignIn);
      assert.deepEqual(await readPortalStorage(second), { token: null, profile: null });
    });

    it('ends the session with a notice when the profile call is refused', async () => {
      const { page } = await portal.newPage();
      const profileCalls: string[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/api/auth/profile'))
          profileCalls.push(request.headers().authorization ?? '');
      });
      await signInBySession(portal, page);
      const { token } = await readPortalStorage(page);
      assert.ok(token);
      await page.getByTestId('account-details').and(page.locator('[data-source="api"]')).waitFor();
      assert.ok(profileCalls.includes(`Bearer ${token}`), 'the profile is fetched with the stored token');

      await revokeOnServer(portal.baseUrl, token);
      await page.reload();
      await page.waitForURL(onSignIn, { timeout: 10_000 });
      await page.getByRole('status').filter({ hasText: SESSION_ENDED_NOTICE }).waitFor();
      assert.deepEqual(await readPortalStorage(page), { token: null, profile: null });
    });

    it('never downloads the error-reporting client off the production host', async () => {
      const { page } = await portal.newPage();
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.goto(routes.signIn.path);
      await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
      // Then signed in (signing in is not what this test checks): the signed-in home.
      await signInBySession(portal, page);
      await page.getByRole('heading', { name: new RegExp(DEMO.firstName) }).waitFor();
      // Past the load event and the browser's next idle moment, when production would fetch it: an idle
      // callback asked for now runs after one the page asked for on its load event.
      await page.waitForLoadState('load');
      await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));
      assert.deepEqual(
        requested.filter((url) => /sentry/i.test(url)),
        [],
      );
      assert.equal(await page.locator('script[src*="sentry" i], link[href*="sentry" i]').count(), 0);
    });
  });
});

describe('error reporting on the production host (browser)', () => {
  let portal: Portal;
  let origin: string;
  before(async () => {
    // The DSN points at the portal's own origin, so that the page may send to it and the test can catch it.
    const port = await freePort();
    origin = `http://localhost:${port}`;
    portal = await openPortal({
      PORT: String(port),
      PUBLIC_URL: origin,
      ERROR_REPORTING_DSN: `http://publickey@localhost:${port}/42`,
      PRODUCTION_HOST: 'localhost',
      ERROR_REPORTING_ALLOWED_ORIGINS: origin,
    });
  });
  after(() => portal?.close());

  it('loads the client after the page, and reports a route error kept from before it loaded', async () => {
    const { page } = await portal.newPage();
    const envelopes: string[] = [];
    let reported: (envelope: string) => void;
    const aboutScreenReport = new Promise<string>((resolve) => (reported = resolve));
    await page.route('**/api/42/envelope/**', async (route) => {
      const envelope = route.request().postData() ?? '';
      envelopes.push(envelope);
      if (envelope.includes('about-screen')) reported(envelope);
      await route.fulfill({ status: 200, contentType: 'application/json', body: '{}' });
    });
    // The About screen's chunk fails to download: the route's error screen shows and reports it.
    await page.route(/\/assets\/about-screen-[^/]*\.js$/, (route) => route.abort());
    const sentryChunk = page.waitForRequest(/\/assets\/[^/]*sentry[^/]*\.js$/);
    await page.goto(routes.about.path);
    await page.getByRole('heading', { name: 'Something went wrong' }).waitFor();

    await (await sentryChunk).response();
    // (No named functions inside evaluate: tsx would wrap them in a helper the page lacks.)
    await page.waitForFunction(() =>
      performance.getEntriesByType('resource').some((entry) => /sentry/.test(entry.name)),
    );
    const timing = await page.evaluate(() => ({
      loadEnd: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd,
      chunkStart:
        performance.getEntriesByType('resource').find((entry) => /sentry/.test(entry.name))?.startTime ?? -1,
    }));
    assert.ok(timing.chunkStart >= timing.loadEnd, `fetched after load: ${JSON.stringify(timing)}`);

    const report = await Promise.race([
      aboutScreenReport,
      new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new Error(`no error report (${envelopes.length} envelopes)`)),
          20_000,
        ).unref(),
      ),
    ]);
    assert.match(report, /"release":"customer-core@2\.4\.2"/);
    assert.match(report, /"environment":"production"/);
    assert.match(report, /"source":"route"/);
  });
});
