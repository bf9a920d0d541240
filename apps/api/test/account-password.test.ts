import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ACCOUNT_ERROR_CODES,
  accountEndpoints,
  API_ERROR_CODES,
  authEndpoints,
  TOO_MANY_CHANGES_MESSAGE,
} from '@customer-core/contracts';
import { ACCOUNT_CHANGES_PER_WINDOW } from '../src/account/change-limit.js';
import { startTestServer, type TestServer } from '../testing/index.js';
import { authn, createUser, mailFor } from './support/links.js';
import { accessTokenOf, call } from './support/loans.js';

// Changing the password from the account page (/api/account/password).

const CURRENT = 'Original-Pass-1';
const NEW_PASSWORD = 'Fresh-Start-29';

describe('changing the password while signed in', () => {
  let server: TestServer;
  let url: string;

  before(async () => {
    // The client's network counts for the lockout: checks of the outcome sign in from another one.
    server = await startTestServer('pglite', { TRUST_PROXY: 'true' });
    url = server.baseUrl;
  });
  after(() => server?.close());

  const signIn = (user: { login: string; password: string }) => accessTokenOf(url, user.login, user.password);
  const change = (token: string | undefined, body: unknown) =>
    call(url, 'POST', accountEndpoints.password.path, token, body);
  const changeBody = (overrides: Record<string, unknown> = {}) => ({
    currentPassword: CURRENT,
    newPassword: NEW_PASSWORD,
    signOutOtherSessions: true,
    ...overrides,
  });
  const profile = async (token: string) => (await call(url, 'GET', authEndpoints.profile.path, token)).status;
  const signsInWith = async (login: string, password: string) =>
    (await authn(url, login, password, '192.0.2.10')).status === 200;

  it('changes the password, signs the other devices out, keeps this one, and e-mails the borrower', async () => {
    const user = await createUser(server, CURRENT);
    const laptop = await signIn(user);
    const phone = await signIn(user);

    const changed = await change(laptop, changeBody());
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual(changed.body, { passwordChanged: true, endedSessions: 1 });

    assert.equal(await profile(phone), 401, 'the other device is signed out');
    assert.equal(await profile(laptop), 200, 'this device stays signed in');
    assert.equal(await signsInWith(user.login, CURRENT), false);
    assert.equal(await signsInWith(user.login, NEW_PASSWORD), true);

    const [mail] = await mailFor(url, user.login);
    assert.equal(mail?.subject, `Your ${server.config.lender.name} password was changed`);
    assert.match(mail.text, /Your other devices were signed out\./);
    assert.ok(mail.text.includes(`Call us right away at ${server.config.lender.supportPhone}`), mail.text);
    assert.ok(!mail.text.includes(NEW_PASSWORD) && !mail.html.includes(NEW_PASSWORD));
  });

  it('keeps the other devices signed in when the box is unticked', async () => {
    const user = await createUser(server, CURRENT);
    const laptop = await signIn(user);
    const phone = await signIn(user);

    const changed = await change(laptop, changeBody({ signOutOtherSessions: false }));
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual(changed.body, { passwordChanged: true, endedSessions: 0 });
    assert.equal(await profile(phone), 200);
    const [mail] = await mailFor(url, user.login);
    assert.match(mail!.text, /Your other devices are still signed in\./);
  });

  it('refuses a wrong current password with a clear message, and counts it against the lockout', async () => {
    const user = await createUser(server, CURRENT);
    const token = await signIn(user);

    const wrong = await change(token, changeBody({ currentPassword: 'Not-My-Pass-1' }));
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error, ACCOUNT_ERROR_CODES.wrongPassword);
    assert.equal(wrong.body.message, 'That isn’t your current password. Check it and try again.');
    assert.equal(await signsInWith(user.login, CURRENT), true, 'the password is unchanged');

    // Nine more from this network make ten: the account is locked here, as after ten wrong sign-ins.
    for (let i = 0; i < 9; i += 1)
      assert.equal((await change(token, changeBody({ currentPassword: `Wrong-${i}-Pass` }))).status, 400);
    const locked = await change(token, changeBody());
    assert.equal(locked.body.error, ACCOUNT_ERROR_CODES.wrongPassword, 'even the right one, while locked');
    assert.equal((await authn(url, user.login, CURRENT)).status, 401, 'sign-in from here is locked too');
    assert.equal(await signsInWith(user.login, CURRENT), true, 'another network is not');
  });

  it('applies the reset screen’s rules and blocklist to the new password', async () => {
    const user = await createUser(server, CURRENT);
    const token = await signIn(user);

    const weak = await change(token, changeBody({ newPassword: 'short' }));
    assert.equal(weak.status, 400);
    assert.equal(weak.body.error, 'bad_request');
    assert.match(String(weak.body.message), /Use at least 8 characters\./);
    assert.match(String(weak.body.message), /Use both an uppercase and a lowercase letter\./);

    const common = await change(token, changeBody({ newPassword: 'Password123!' }));
    assert.equal(common.status, 400);
    assert.equal(common.body.error, API_ERROR_CODES.passwordTooCommon);
    assert.equal(common.body.message, 'This password is too common. Choose another.');

    const same = await change(token, changeBody({ newPassword: CURRENT }));
    assert.equal(same.status, 400);
    assert.equal(same.body.error, ACCOUNT_ERROR_CODES.passwordUnchanged);
    assert.equal(await signsInWith(user.login, CURRENT), true, 'nothing was changed');
  });

  it("changes only the caller's own password: another borrower's is not theirs to prove", async () => {
    const victim = await createUser(server, CURRENT);
    const other = await createUser(server, 'Other-Pass-77');
    const victimToken = await signIn(victim);
    const otherToken = await signIn(other);

    // The victim's password, sent with the other borrower's token, proves nothing about the other.
    const attempt = await change(otherToken, changeBody({ currentPassword: CURRENT }));
    assert.equal(attempt.status, 400);
    assert.equal(attempt.body.error, ACCOUNT_ERROR_CODES.wrongPassword);
    assert.equal(await signsInWith(victim.login, CURRENT), true);
    assert.equal(await profile(victimToken), 200);
    assert.equal((await change(undefined, changeBody())).status, 401);
    const forged = await change('not-a-token', changeBody());
    assert.equal(forged.status, 400);
    assert.equal(forged.body.error, 'malformed_token');
  });

  it('refuses changes past the ceiling per borrower with 429, each one of which mails them', async () => {
    const user = await createUser(server, CURRENT);
    const token = await signIn(user);
    const passwords = [CURRENT];
    for (let i = 1; i <= ACCOUNT_CHANGES_PER_WINDOW; i += 1) {
      passwords.push(`Fresh-Start-${i}-of-many`);
      const body = { currentPassword: passwords[i - 1], newPassword: passwords[i] };
      const changed = await change(token, changeBody({ ...body, signOutOtherSessions: false }));
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
    }
    const refused = await change(
      token,
      changeBody({ currentPassword: passwords.at(-1), newPassword: 'One-More-Change-1' }),
    );
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, ACCOUNT_ERROR_CODES.tooManyChanges);
    assert.equal(refused.body.message, TOO_MANY_CHANGES_MESSAGE);
    assert.equal(await signsInWith(user.login, passwords.at(-1)!), true, 'the refused change made none');
    await mailFor(url, user.login, ACCOUNT_CHANGES_PER_WINDOW);

    const other = await createUser(server, CURRENT);
    const allowed = await change(await signIn(other), changeBody());
    assert.equal(allowed.status, 200, 'another borrower is not limited by it');
  });

  it('answers bad bodies 400, never 5xx', async () => {
    const user = await createUser(server, CURRENT);
    const token = await signIn(user);
    const bodies: unknown[] = [
      {},
      [],
      'text',
      null,
      changeBody({ currentPassword: undefined }),
      changeBody({ currentPassword: '' }),
      changeBody({ currentPassword: 42 }),
      changeBody({ currentPassword: 'x'.repeat(10_000) }),
      changeBody({ newPassword: undefined }),
      changeBody({ newPassword: `${'Aa1'.repeat(50)}` }),
      changeBody({ newPassword: 'New-Pass-1\u0000' }),
      changeBody({ currentPassword: 'Original-Pass-1\n' }),
      changeBody({ signOutOtherSessions: 'yes' }),
      changeBody({ signOutOtherSessions: undefined }),
    ];
    for (const body of bodies) {
      const answer = await change(token, body);
      assert.equal(answer.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`);
      assert.equal(typeof answer.body.message, 'string');
    }
    const notJson = await fetch(`${url}${accountEndpoints.password.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"currentPassword":',
    });
    assert.equal(notJson.status, 400);
    assert.equal(await signsInWith(user.login, CURRENT), true, 'nothing was changed');
  });
});
