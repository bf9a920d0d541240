import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authEndpoints, routes } from '@customer-core/contracts';
import type { Page } from 'playwright-core';
import { collectPageErrors } from './support/browser.js';
import { DEMO, openPortal, readPortalStorage, signInAsDemo, type Portal } from './support/portal.js';
import { validationStatus } from './support/session.js';

// okta-auth-js counts a borrower as signed in only while its token manager holds an unexpired ID
// token (it treats one as expired 30 s early). The identity provider's ID tokens are short-lived:
// the portal must renew them, not sign the borrower out.

const ID_TOKEN_TTL_SECONDS = 60;
const EXPIRED_EARLY_SECONDS = 30;

/** The identity provider's ID token in okta-auth-js's token manager (shared by the tabs). */
const storedIdToken = (page: Page) =>
  page.evaluate(() => {
    const stored = JSON.parse(localStorage.getItem('okta-token-storage') ?? '{}') as {
      idToken?: { idToken: string; expiresAt: number };
    };
    return stored.idToken ?? null;
  });

describe('signed in past the ID token lifetime (browser, 60-second ID tokens)', () => {
  let portal: Portal;
  before(async () => {
    portal = await openPortal({ IDP_ID_TOKEN_TTL_SECONDS: String(ID_TOKEN_TTL_SECONDS) });
  });
  after(() => portal?.close());

  it('keeps the borrower signed in across a reload once the ID token has expired, renewing it', async () => {
    const { context, page } = await portal.newPage();
    // The page's clock is Playwright's, running as usual until the test moves it on.
    await context.clock.install();
    const errors = collectPageErrors(page);
    const exchanges: string[] = [];
    context.on('request', (request) => {
      if (request.url().endsWith(authEndpoints.tokenExchange.path)) exchanges.push(request.postData() ?? '');
    });
    await signInAsDemo(page);
    await page.getByRole('heading', { name: new RegExp(DEMO.firstName) }).waitFor();
    const first = await storedIdToken(page);
    assert.ok(first, 'the token manager holds the ID token');
    const { token } = await readPortalStorage(page);

    // The page's clock moves on to where okta-auth-js counts the ID token as expired; the identity
    // provider's does not. First, real time a few seconds past the token's issue: the provider's next
    // ID token is then a later one, and to the moved clock still unexpired for those seconds.
    const issuedAt = first.expiresAt - ID_TOKEN_TTL_SECONDS;
    await page.waitForFunction((at) => Date.now() / 1000 >= at, issuedAt + 5);
    await context.clock.setSystemTime((first.expiresAt - EXPIRED_EARLY_SECONDS) * 1000 + 100);
    await page.reload();
    await page.getByRole('heading', { name: new RegExp(DEMO.firstName) }).waitFor();
    assert.equal(new URL(page.url()).pathname, routes.dashboard.path, 'still signed in');
    const renewed = await storedIdToken(page);
    assert.ok(renewed && renewed.expiresAt > first.expiresAt, 'a new ID token from the identity provider');
    assert.notEqual(renewed.idToken, first.idToken);
    assert.equal((await readPortalStorage(page)).token, token, 'the same product session');
    assert.equal(await validationStatus(portal.baseUrl, token!), 200);
    assert.equal(exchanges.length, 1, 'the ID token was exchanged once, at sign-in');
    assert.deepEqual(errors, []);
  });
});
