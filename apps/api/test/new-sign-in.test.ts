import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  activityEndpoints,
  authEndpoints,
  API_ERROR_CODES,
  type SecurityActivityPage,
} from '@customer-core/contracts';
import { signInThroughIdp, startTestServer, type TestServer } from '../testing/index.js';
import { createUser, mailFor, tokenOf } from './support/links.js';
import { call } from './support/loans.js';
import { json, post } from './support/session.js';

// "New sign-in to your account": a sign-in from a browser the borrower has not used before is
// e-mailed to them, with a one-time "This wasn't me" link that ends every session and starts a reset.

const LAPTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const DEVICE_COOKIE = /^cc_device=([A-Za-z0-9_-]{43});/;

interface Browser {
  /** The device cookie it keeps, once the server set one. */
  cookie?: string;
  /** The client address it signs in from. */
  address: string;
  /** What it says it is; a laptop's Chrome unless said. */
  userAgent?: string;
}

describe(`new-sign-in e-mails and "This wasn't me"`, () => {
  let server: TestServer;
  let url: string;

  before(async () => {
    server = await startTestServer('pglite', { NEW_SIGN_IN_EMAILS: 'true', TRUST_PROXY: 'true' });
    url = server.baseUrl;
  });
  after(() => server?.close());

  /** A password sign-in from the browser, which keeps the device cookie it is given. */
  async function signIn(user: { login: string; password: string }, browser: Browser) {
    const { idToken } = await signInThroughIdp(url, { username: user.login, password: user.password });
    const response = await post(
      url,
      authEndpoints.tokenExchange.path,
      { token: idToken },
      {
        'user-agent': browser.userAgent ?? LAPTOP,
        'x-forwarded-for': browser.address,
        ...(browser.cookie && { cookie: `cc_device=${browser.cookie}` }),
      },
    );
    const { status, body } = await json<{ access_token: string }>(response);
    assert.equal(status, 200);
    const setCookie = response.headers.get('set-cookie') ?? '';
    browser.cookie = DEVICE_COOKIE.exec(setCookie)?.[1];
    return { token: body.access_token, setCookie };
  }

  /** The new-sign-in e-mails written for the address (the outbox: written with the sign-in). */
  const notices = (to: string) =>
    server.server.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('recipient', '=', to)
      .where('kind', '=', 'new-sign-in')
      .execute();

  const report = (token: unknown) => post(url, authEndpoints.unrecognizedSignIn.path, { token });
  const profileStatus = async (token: string) =>
    (await call(url, 'GET', authEndpoints.profile.path, token)).status;

  it('sets a long-lived, script-proof device cookie scoped to the API', async () => {
    const user = await createUser(server);
    const { setCookie } = await signIn(user, { address: '203.0.113.10' });
    assert.match(setCookie, DEVICE_COOKIE);
    assert.match(setCookie, /Max-Age=34560000/);
    assert.match(setCookie, /Path=\/api\//);
    assert.match(setCookie, /HttpOnly/);
    assert.match(setCookie, /SameSite=Lax/);
  });

  it('remembers the first browser quietly, mails a sign-in from a second, and not its return', async () => {
    const user = await createUser(server);
    const laptop: Browser = { address: '203.0.113.20' };
    await signIn(user, laptop);
    await signIn(user, laptop);
    assert.equal((await notices(user.login)).length, 0, 'the first browser, twice: no e-mail');

    const phone: Browser = { address: '198.51.100.7' };
    await signIn(user, phone);
    assert.equal((await notices(user.login)).length, 1, 'a second browser: one e-mail');
    await signIn(user, phone);
    await signIn(user, laptop);
    assert.equal((await notices(user.login)).length, 1, 'known browsers again: nothing more');

    const [message] = await mailFor(url, user.login);
    assert.equal(message!.subject, 'New sign-in to your Main Street Funding account');
    assert.match(message!.text, /Device: Chrome on Windows/);
    assert.match(message!.text, /Approximate network: 198\.51\.100\.0\/24/);
    assert.match(message!.text, /When: \w+day, \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M UTC/);
    assert.ok(tokenOf(message!, 'unrecognized-sign-in'));
    assert.doesNotMatch(message!.text, /cc_device|203\.0\.113/, 'no device id, no other address');
  });

  it('names the browser as parsed, never in the words a stranger sent as its User-Agent', async () => {
    const user = await createUser(server);
    await signIn(user, { address: '203.0.113.40' });
    for (const userAgent of [
      'Main Street Funding security: call 1-800-555-0199 now',
      'Main Street Funding security: call 1-800-555-0199 now/1 (urgent)',
      'Mozilla/5.0 (Windows NT 10.0) Main Street Funding call 1-800-555-0199/1 ',
    ])
      await signIn(user, { address: '198.51.100.8', userAgent });
    const messages = await mailFor(url, user.login, 3);
    for (const message of messages)
      for (const part of [message.subject, message.text, message.html])
        assert.doesNotMatch(part, /1-800-555-0199/);
    assert.deepEqual(messages.map((message) => /Device: ([^\n]*)/.exec(message.text)?.[1]).sort(), [
      'Unknown device',
      'Unknown device',
      'Windows',
    ]);
  });

  it('counts a malformed or forged-looking device cookie as a new browser', async () => {
    const user = await createUser(server);
    const laptop: Browser = { address: '203.0.113.30' };
    await signIn(user, laptop);
    const tampered: Browser = { address: '203.0.113.30', cookie: `${laptop.cookie!.slice(0, 42)}` };
    await signIn(user, tampered);
    assert.notEqual(tampered.cookie, laptop.cookie, 'a fresh id replaces the malformed one');
    assert.equal((await notices(user.login)).length, 1);
  });

  it('"This wasn\'t me" ends every session at once, records it, and leads to a new password, once', async () => {
    const user = await createUser(server);
    const laptop = await signIn(user, { address: '203.0.113.40' });
    const stranger = await signIn(user, { address: '192.0.2.99' });
    const [message] = await mailFor(url, user.login);
    const token = tokenOf(message!, 'unrecognized-sign-in');

    const answer = await json<{ resetToken: string }>(await report(token));
    assert.equal(answer.status, 200);
    assert.equal(await profileStatus(laptop.token), 401);
    assert.equal(await profileStatus(stranger.token), 401);

    const check = await post(url, authEndpoints.passwordResetCheck.path, { token: answer.body.resetToken });
    assert.equal(check.status, 200, 'the reset token it answers works');

    const again = await json<{ error: string }>(await report(token));
    assert.equal(again.status, 400);
    assert.equal(again.body.error, API_ERROR_CODES.invalidLink);

    const fresh = await signIn(user, { address: '203.0.113.40' });
    const activity = await call(url, 'GET', activityEndpoints.account.path, fresh.token);
    const ended = (activity.body as SecurityActivityPage).events.filter(
      (event) => event.kind === 'session_ended',
    );
    assert.equal(ended.length, 2);
    assert.ok(ended.every((event) => event.endedBy === 'unrecognized_sign_in'));
  });

  it('refuses unknown links and bad bodies with 400, never 5xx', async () => {
    for (const token of ['not-a-real-token', 'x'.repeat(43)]) {
      const { status, body } = await json<{ error: string }>(await report(token));
      assert.equal(status, 400);
      assert.equal(body.error, API_ERROR_CODES.invalidLink);
    }
    for (const body of [{}, { token: 42 }, { token: '' }, { token: 'a\nb' }]) {
      const response = await post(url, authEndpoints.unrecognizedSignIn.path, body);
      assert.equal(response.status, 400, JSON.stringify(body));
    }
  });

  it('mails at most the e-mailed-link limit per address and network, however many new browsers', async () => {
    const user = await createUser(server);
    await signIn(user, { address: '203.0.113.50' });
    for (let i = 0; i < 5; i += 1) await signIn(user, { address: '203.0.113.51' });
    assert.equal((await notices(user.login)).length, 3, 'EMAIL_LINK_LIMIT_PER_ADDRESS_AND_CLIENT');
    await signIn(user, { address: '198.51.100.52' });
    assert.equal((await notices(user.login)).length, 4, 'another network still gets through');
  });
});
