import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authEndpoints, applicationEndpoints, routes } from '@customer-core/contracts';
import type { Page, Request } from 'playwright-core';
import { LINK_LIMITS_ENV } from './support/getting-back-in.js';
import { OPERATOR_ENV, runCliInProcess } from './support/joining.js';
import { inbox, linkPath, waitForMail } from './support/mailbox.js';
import { DEMO, openPortal, type Portal } from './support/portal.js';

// A page whose URL carries a one-time token must not hand that URL to anything it loads or calls:
// no request from it (scripts, styles, icons, API calls, the navigation it makes) carries a Referer
// with the token.

interface SeenRequest {
  url: string;
  referer: string | undefined;
}

/** Every request the page makes until the returned function is called, with the Referer really sent. */
function recordRequests(page: Page): () => Promise<SeenRequest[]> {
  const pending: Array<Promise<SeenRequest>> = [];
  const record = (request: Request) => {
    pending.push(request.allHeaders().then((headers) => ({ url: request.url(), referer: headers.referer })));
  };
  page.on('request', record);
  return () => {
    page.off('request', record);
    return Promise.all(pending);
  };
}

describe('token pages send no Referer (browser)', () => {
  let portal: Portal;
  before(async () => {
    portal = await openPortal({ ...LINK_LIMITS_ENV, ...OPERATOR_ENV });
  });
  after(() => portal?.close());

  const post = (path: string, body: unknown) =>
    fetch(`${portal.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  /** Opens the token page, does what a borrower does there, and checks every request it made. */
  async function checkPage(path: string, act: (page: Page) => Promise<void>) {
    const token = decodeURIComponent(path.split('/').pop()!);
    assert.ok(token.length >= 32, `a token in ${path}`);
    const { page } = await portal.newPage();
    const seen = recordRequests(page);
    await page.goto(path);
    await act(page);
    // Until nothing more is loaded or called: the last request made is recorded too.
    await page.waitForLoadState('networkidle');
    const requests = await seen();
    const urls = requests.map((r) => new URL(r.url).pathname);
    assert.ok(
      urls.some((u) => u.endsWith('.js')),
      `${path}: subresources were loaded (${urls.join(', ')})`,
    );
    assert.ok(
      urls.some((u) => u.startsWith('/api/')),
      `${path}: an API call was made (${urls.join(', ')})`,
    );
    const leaking = requests.filter((r) => r.referer?.includes(token)).map((r) => new URL(r.url).pathname);
    assert.deepEqual(leaking, [], `${path}: requests with the token in their Referer`);
    await page.close();
  }

  it('password reset', async () => {
    assert.equal((await post(authEndpoints.passwordReset.path, { email: DEMO.email })).status, 200);
    const path = linkPath(await waitForMail(portal.baseUrl, DEMO.email), '/auth/password-reset/');
    await checkPage(path, async (page) => {
      await page.getByLabel('New password', { exact: true }).fill('Referrer-Check-2027');
      await page.getByLabel('Confirm new password').fill('Referrer-Check-2027');
      await page.getByRole('button', { name: 'Save new password' }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/auth/password-reset/'));
    });
  });

  it('sign-in link landing', async () => {
    const before = (await inbox(portal.baseUrl, DEMO.email)).length;
    assert.equal((await post(authEndpoints.sendMagicLinkEmail.path, { email: DEMO.email })).status, 200);
    const path = linkPath(
      await waitForMail(portal.baseUrl, DEMO.email, before + 1),
      '/auth/magic-link-landing/',
    );
    await checkPage(path, async (page) => {
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/auth/magic-link-landing/'));
    });
  });

  it('user registration', async () => {
    const email = 'referrer.check@example.com';
    // (The command line as its own process: joining.test.ts.)
    await runCliInProcess(portal.baseUrl, [
      'invite',
      '--email',
      email,
      '--first-name',
      'Rita',
      '--last-name',
      'Ref',
    ]);
    const path = linkPath(await waitForMail(portal.baseUrl, email), '/user-registration/');
    await checkPage(path, async (page) => {
      await page.getByLabel('Password', { exact: true }).fill('Referrer-Check-2027');
      await page.getByLabel('Confirm password').fill('Referrer-Check-2027');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/user-registration/'));
    });
  });

  it('email verification', async () => {
    const email = 'referrer.applicant@example.com';
    const started = await post(applicationEndpoints.start.path, {
      businessName: 'Referrer Check LLC',
      contactName: 'Rae Check',
      email,
      amountRequested: 50_000,
      purpose: 'equipment',
    });
    assert.equal(started.status, 201);
    // The e-mailed link forwards to the portal's verification page; both carry the token.
    const path = linkPath(await waitForMail(portal.baseUrl, email), '/app/email-verification/');
    const token = decodeURIComponent(path.split('/').pop()!);
    for (const page of [path, routes.directAppEmailVerification.href({ token })]) {
      await checkPage(page, async (tab) => {
        await tab.getByRole('button', { name: 'Verify my email address' }).click();
        await tab.getByRole('heading', { name: /Your email address is (already )?verified/ }).waitFor();
      });
    }
  });
});
