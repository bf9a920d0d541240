import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page, Request } from 'playwright-core';
import { routes } from '@customer-core/contracts';
import type { TestOrg } from '@customer-core/api/testing';
import { collectPageErrors, screenshot } from './support/browser.js';
import { onPath } from './support/getting-back-in.js';
import { openPortalWithOrg, signOutFromMenu, submitSignIn, type Portal } from './support/portal.js';
import { authenticatorCode } from './support/second-factor.js';

// A hosted Okta org on another site than the portal (an org at lender.okta.com for a portal at
// portal.lender.example), in a browser that blocks third-party cookies: none of the org's cookies
// reach it while the portal's page is open, so the sign-in cannot lean on them.

const PASSWORD = 'Original-Pass-1';
let people = 0;

describe('with a hosted Okta org on another site, third-party cookies blocked (browser)', () => {
  let portal: Portal & { org: TestOrg };
  before(async () => {
    portal = await openPortalWithOrg({}, 'pglite', { crossSite: true });
  });
  after(() => portal?.close());

  async function orgApi(method: string, path: string, body: unknown) {
    const response = await fetch(`${portal.org.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `SSWS ${portal.org.apiToken}` },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    assert.equal(response.status, 200, text);
    return JSON.parse(text) as Record<string, unknown>;
  }

  async function orgUser(firstName: string) {
    people += 1;
    const login = `cross.site.${people}.${Date.now()}@example.com`;
    const user = await orgApi('POST', '/api/v1/users?activate=true', {
      profile: { firstName, lastName: 'Lovelace', email: login, login },
      credentials: { password: { value: PASSWORD } },
    });
    return { id: String(user.id), login, firstName };
  }

  /** An authenticator app set up by the org's administrator; its activation spends the current code. */
  async function withAuthenticatorApp(userId: string): Promise<string> {
    const factor = await orgApi('POST', `/api/v1/users/${userId}/factors`, {
      factorType: 'token:software:totp',
      provider: 'GOOGLE',
    });
    const secret = (factor._embedded as { activation: { sharedSecret: string } }).activation.sharedSecret;
    await orgApi('POST', `/api/v1/users/${userId}/factors/${String(factor.id)}/lifecycle/activate`, {
      passCode: authenticatorCode(secret),
    });
    return secret;
  }

  /**
   * The control: a cookie of the org that any request to it would carry (SameSite=None) goes with a
   * page of the org's own, and not with the org's frames in the portal's page. Answers the org's
   * frames the page loads.
   */
  async function orgCookieIsThirdParty(context: BrowserContext, page: Page): Promise<Request[]> {
    await context.addCookies([
      {
        name: 'org_probe',
        value: '1',
        domain: new URL(portal.org.url).hostname,
        path: '/',
        sameSite: 'None',
        secure: true,
      },
    ]);
    const own = await page.goto(`${portal.org.url}/healthz`);
    assert.match((await own?.request().headerValue('cookie')) ?? '', /org_probe=1/, 'a first-party cookie');
    const frames: Request[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(portal.org.url) && request.frame() !== page.mainFrame())
        frames.push(request);
    });
    return frames;
  }

  async function assertNoOrgCookieIn(frames: Request[]) {
    const authorize = frames.filter((request) =>
      request.url().startsWith(`${portal.org.issuer}/v1/authorize`),
    );
    assert.ok(authorize.length > 0, 'the sign-in went through the org’s hidden frame');
    for (const request of authorize)
      assert.equal(await request.headerValue('cookie'), null, 'no cookie of the org in the frame');
  }

  const onDashboard = onPath(routes.dashboard.path);

  it('signs in with the password, then with the password and a code from an authenticator app', async () => {
    const user = await orgUser('Olivia');
    const { context, page } = await portal.newPage();
    const errors = collectPageErrors(page);
    const frames = await orgCookieIsThirdParty(context, page);
    await page.goto(routes.signIn.path);
    await submitSignIn(page, user.login, PASSWORD);
    await page.waitForURL(onDashboard, { timeout: 20_000 });
    await page.getByRole('heading', { name: new RegExp(user.firstName) }).waitFor();
    await assertNoOrgCookieIn(frames);
    await screenshot(page, 'hosted-org-cross-site-dashboard');
    await page.reload();
    await page.getByRole('heading', { name: new RegExp(user.firstName) }).waitFor();
    assert.ok(onDashboard(new URL(page.url())), 'still signed in after a reload');

    await signOutFromMenu(page);
    await page.waitForURL(onPath(routes.signIn.path));
    await page.goto(routes.dashboard.path);
    await page.waitForURL(onPath(routes.signIn.path));

    // The org's administrator adds an authenticator app: the next sign-in asks for its code.
    const secret = await withAuthenticatorApp(user.id);
    frames.length = 0;
    await submitSignIn(page, user.login, PASSWORD);
    await page.getByLabel('6-digit code').fill(authenticatorCode(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(onDashboard, { timeout: 20_000 });
    await page.getByRole('heading', { name: new RegExp(user.firstName) }).waitFor();
    await assertNoOrgCookieIn(frames);
    assert.deepEqual(errors, []);
  });
});
