import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  accountEndpoints,
  API_ERROR_CODES,
  authEndpoints,
  operatorEndpoints,
} from '@customer-core/contracts';
import { idpBrowser, startTestServer, type TestServer } from '../testing/index.js';
import { startHostedIdp } from './support/hosted-idp.js';
import { createUser, mailFor, tokenOf } from './support/links.js';
import { call } from './support/loans.js';
import { json, post } from './support/session.js';
import { startTwoInstances, type TwoInstances } from './support/two-instances.js';

// Whoever holds the borrower's password may have signed in at the identity provider and kept what
// that gave them (its session cookie, an ID token not yet exchanged) instead of starting a product
// session the borrower would see. Every way of ending the other sessions ends that sign-in too.

const OPERATOR_SECRET = 'operator-secret-for-end-other-sessions-0123456789';
const PASSWORD = 'Original-Pass-1';
const NEW_PASSWORD = 'Fresh-Start-29';

interface ApiAnswer {
  error?: string;
  access_token?: string;
}

const exchange = async (baseUrl: string, token: string) =>
  json<ApiAnswer>(await post(baseUrl, authEndpoints.tokenExchange.path, { token }));

/** The borrower's own sign-in, exchanged as the portal does: their access token. */
async function borrowerSignIn(baseUrl: string, user: { login: string; password: string }) {
  const { idToken } = await idpBrowser(baseUrl).signIn({ username: user.login, password: user.password });
  const { status, body } = await exchange(baseUrl, idToken);
  assert.equal(status, 200, JSON.stringify(body));
  return { token: body.access_token! };
}

/** The attacker's sign-in at the identity provider: the browser (its cookie) and an unexchanged ID token. */
async function keptSignIn(baseUrl: string, user: { login: string; password: string }) {
  const browser = idpBrowser(baseUrl);
  const { idToken } = await browser.signIn({ username: user.login, password: user.password });
  return { browser, idToken };
}

describe('ending the other sessions ends a sign-in kept at the identity provider', () => {
  let server: TestServer;
  let url: string;
  let hosted: Awaited<ReturnType<typeof startHostedIdp>>;

  before(async () => {
    hosted = await startHostedIdp();
    server = await startTestServer('pglite', {
      ...hosted.env,
      SERVICE_CREDENTIALS: `ops:operator:${OPERATOR_SECRET}`,
      NEW_SIGN_IN_EMAILS: 'true',
    });
    url = server.baseUrl;
  });
  after(async () => {
    await server?.close();
    await hosted?.close();
  });

  const profile = async (token: string) => (await call(url, 'GET', authEndpoints.profile.path, token)).status;

  /** The kept sign-in is over: its ID token signs in no more, and its cookie gets no new code. */
  async function assertKeptSignInEnded(kept: Awaited<ReturnType<typeof keptSignIn>>) {
    const exchanged = await exchange(url, kept.idToken);
    assert.equal(exchanged.status, 401, 'the kept ID token signed in');
    assert.equal(exchanged.body.error, API_ERROR_CODES.idpSessionEnded);
    assert.deepEqual(await kept.browser.authorizeSilently(), { error: 'login_required' });
  }

  it('a password change that signs out the other sessions', async () => {
    const user = await createUser(server, PASSWORD);
    const laptop = await borrowerSignIn(url, user);
    const phone = await borrowerSignIn(url, user);
    const kept = await keptSignIn(url, user);
    // The attacker's browser could mint new ID tokens until now.
    assert.ok((await kept.browser.authorizeSilently()).code);

    const changed = await call(url, 'POST', accountEndpoints.password.path, laptop.token, {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
      signOutOtherSessions: true,
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual(changed.body, { passwordChanged: true, endedSessions: 1 });

    await assertKeptSignInEnded(kept);
    assert.equal(await profile(phone.token), 401);
    // The borrower's own session goes on, and a sign-in with the new password works at once.
    assert.equal(await profile(laptop.token), 200);
    await borrowerSignIn(url, { login: user.login, password: NEW_PASSWORD });
  });

  it('"Sign out everywhere else"', async () => {
    const user = await createUser(server, PASSWORD);
    const here = await borrowerSignIn(url, user);
    const kept = await keptSignIn(url, user);

    const ended = await call(url, 'POST', accountEndpoints.endOtherSessions.path, here.token);
    assert.equal(ended.status, 200, JSON.stringify(ended.body));

    await assertKeptSignInEnded(kept);
    assert.equal(await profile(here.token), 200);
    await borrowerSignIn(url, user);
  });

  it('a password reset by e-mailed link', async () => {
    const user = await createUser(server, PASSWORD);
    const kept = await keptSignIn(url, user);
    assert.equal((await post(url, authEndpoints.passwordReset.path, { email: user.login })).status, 200);
    const [message] = await mailFor(url, user.login);
    const reset = await post(url, authEndpoints.passwordResetFinish.path, {
      token: tokenOf(message!, 'password-reset'),
      password: NEW_PASSWORD,
    });
    assert.equal(reset.status, 200, await reset.clone().text());

    await assertKeptSignInEnded(kept);
    await borrowerSignIn(url, { login: user.login, password: NEW_PASSWORD });
  });

  it('"This wasn\'t me"', async () => {
    const user = await createUser(server, PASSWORD);
    const laptop = await borrowerSignIn(url, user);
    // The borrower's phone is a browser new to them: they are e-mailed about it.
    const phone = await borrowerSignIn(url, user);
    const kept = await keptSignIn(url, user);
    const [message] = await mailFor(url, user.login);

    const reported = await post(url, authEndpoints.unrecognizedSignIn.path, {
      token: tokenOf(message!, 'unrecognized-sign-in'),
    });
    assert.equal(reported.status, 200, await reported.clone().text());

    await assertKeptSignInEnded(kept);
    assert.equal(await profile(laptop.token), 401);
    assert.equal(await profile(phone.token), 401);
  });

  it("an operator's end of every session (`sessions --all`)", async () => {
    const user = await createUser(server, PASSWORD);
    const laptop = await borrowerSignIn(url, user);
    const kept = await keptSignIn(url, user);

    const ended = await call(url, 'POST', operatorEndpoints.endAllSessions.path, OPERATOR_SECRET, {
      email: user.login,
    });
    assert.deepEqual(ended, { status: 200, body: { ended: 1 } });

    await assertKeptSignInEnded(kept);
    assert.equal(await profile(laptop.token), 401);
  });

  it('refuses an ID token issued before the other sessions ended, also one that names no session', async () => {
    // A hosted org's ID tokens may name no session (sid): the cut-off alone refuses them.
    const subject = '00u-kept';
    const iat = Math.floor(Date.now() / 1000) - 60;
    const kept = await hosted.idToken({ sub: subject, jti: 'ID.kept', iat });
    const signedIn = await exchange(url, await hosted.idToken({ sub: subject, jti: 'ID.here', iat }));
    assert.equal(signedIn.status, 200);
    const here = signedIn.body.access_token!;

    const ended = await call(url, 'POST', accountEndpoints.endOtherSessions.path, here);
    assert.equal(ended.status, 200, JSON.stringify(ended.body));

    const refused = await exchange(url, kept);
    assert.equal(refused.status, 401, 'the kept ID token signed in');
    assert.equal(refused.body.error, API_ERROR_CODES.idTokenRevoked);
    // The session it was ended from was exchanged already: it goes on, and so do new sign-ins.
    assert.equal(await profile(here), 200);
    assert.equal((await exchange(url, await hosted.idToken({ sub: subject, jti: 'ID.new' }))).status, 200);
  });
});

describe(
  'the other sessions ended on one instance, an ID token kept for another',
  { skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL' },
  () => {
    let instances: TwoInstances | undefined;
    let hosted: Awaited<ReturnType<typeof startHostedIdp>> | undefined;
    before(async () => {
      hosted = await startHostedIdp();
      instances = await startTwoInstances(hosted.env);
    });
    after(async () => {
      await instances?.close();
      await hosted?.close();
    });

    it('is refused by the other at once', async () => {
      const { a, bUrl } = instances!;
      const user = await createUser(a, PASSWORD);
      const here = await borrowerSignIn(a.baseUrl, user);
      const kept = await keptSignIn(a.baseUrl, user);
      const subject = '00u-kept-two-instances';
      const iat = Math.floor(Date.now() / 1000) - 60;
      const keptHosted = await hosted!.idToken({ sub: subject, jti: 'ID.kept-two', iat });
      const hostedHere = await exchange(a.baseUrl, await hosted!.idToken({ sub: subject, iat }));
      assert.equal(hostedHere.status, 200);

      for (const token of [here.token, hostedHere.body.access_token!]) {
        const ended = await call(a.baseUrl, 'POST', accountEndpoints.endOtherSessions.path, token);
        assert.equal(ended.status, 200, JSON.stringify(ended.body));
      }

      const onB = await exchange(bUrl, kept.idToken);
      assert.equal(onB.status, 401, 'the kept ID token signed in on B');
      assert.equal(onB.body.error, API_ERROR_CODES.idpSessionEnded);
      const hostedOnB = await exchange(bUrl, keptHosted);
      assert.equal(hostedOnB.status, 401, 'the kept hosted ID token signed in on B');
      assert.equal(hostedOnB.body.error, API_ERROR_CODES.idTokenRevoked);
      assert.equal((await call(bUrl, 'GET', authEndpoints.profile.path, here.token)).status, 200);
    });
  },
);
