import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ACCOUNT_ERROR_CODES,
  accountEndpoints,
  API_ERROR_CODES,
  authEndpoints,
  EMAIL_CHANGE_LINK_PROBLEM,
  STEP_UP_MAX_AGE_SECONDS,
  STEP_UP_REQUIRED,
} from '@customer-core/contracts';
import { signedInAgo, signInThroughIdp, startTestServer, type TestServer } from '../testing/index.js';
import { authn, createUser, inbox, mailFor, type MailboxMessage } from './support/links.js';
import { call } from './support/loans.js';
import { json, post } from './support/session.js';

// Changing the sign-in email address from the account page (/api/account/email and its link).

const PASSWORD = 'Original-Pass-1';
let addresses = 0;
const newAddress = (label = 'new') => `${label}.${(addresses += 1)}.${Date.now()}@example.org`;

/** The token of the email change link in a message to the new address. */
function changeTokenOf(message: MailboxMessage): string {
  const token = message.links
    .map((link) => /^https?:\/\/[^/]+\/ui\/dashboard\/account\/email-change\/([^/?#]+)$/.exec(link)?.[1])
    .find(Boolean);
  assert.ok(token, `an email change link in ${JSON.stringify(message.links)}`);
  return decodeURIComponent(token);
}

describe('changing the sign-in email address', () => {
  let server: TestServer;
  let url: string;

  before(async () => {
    server = await startTestServer('pglite', {
      // Small limits so that the test reaches them: per borrower 4, per new address 2 from one borrower.
      EMAIL_LINK_LIMIT_PER_CLIENT: '4',
      EMAIL_LINK_LIMIT_PER_ADDRESS_AND_CLIENT: '2',
      EMAIL_LINK_FLOOD_LIMIT_PER_ADDRESS: '3',
    });
    url = server.baseUrl;
  });
  after(() => server?.close());

  async function signIn(login: string, password = PASSWORD): Promise<string> {
    const { idToken } = await signInThroughIdp(url, { username: login, password });
    const { status, body } = await json<{ access_token: string }>(
      await post(url, authEndpoints.tokenExchange.path, { token: idToken }),
    );
    assert.equal(status, 200);
    return body.access_token;
  }
  async function signedInBorrower() {
    const user = await createUser(server, PASSWORD);
    return { user, token: await signIn(user.login) };
  }
  const ask = (token: string | undefined, body: unknown) =>
    call(url, 'POST', accountEndpoints.changeEmail.path, token, body);
  const confirm = (token: string | undefined, body: unknown) =>
    call(url, 'POST', accountEndpoints.confirmEmail.path, token, body);
  const current = async (token: string) => (await call(url, 'GET', accountEndpoints.email.path, token)).body;
  const signsInWith = async (login: string) => (await authn(url, login, PASSWORD)).status === 200;

  it('changes nothing until the link is used; then the product and the identity provider take the new address', async () => {
    const { user, token } = await signedInBorrower();
    const target = newAddress();

    const asked = await ask(token, { newEmail: `  ${target.toUpperCase()} ` });
    assert.equal(asked.status, 202, JSON.stringify(asked.body));
    assert.deepEqual(asked.body, { linkSent: true });

    const [message] = await mailFor(url, target);
    assert.equal(message?.subject, `Confirm your new ${server.config.lender.name} sign-in email`);
    assert.deepEqual(await current(token), { email: user.login, changeable: true }, 'nothing changed yet');
    assert.equal(await signsInWith(user.login), true);
    assert.equal(await signsInWith(target), false);
    assert.deepEqual(await inbox(url, user.login), [], 'the old address hears nothing before the change');

    const used = await confirm(token, { token: changeTokenOf(message) });
    assert.equal(used.status, 200, JSON.stringify(used.body));
    assert.deepEqual(used.body, { email: target });

    assert.deepEqual(await current(token), { email: target, changeable: true });
    assert.equal((await call(url, 'GET', authEndpoints.profile.path, token)).body.email, target);
    assert.equal(await signsInWith(target), true, 'the sign-in name changed in the identity provider');
    assert.equal(await signsInWith(user.login), false);
    const { idToken } = await signInThroughIdp(url, { username: target, password: PASSWORD });
    const exchanged = await post(url, authEndpoints.tokenExchange.path, { token: idToken });
    assert.equal(exchanged.status, 200, 'a sign-in with the new address reaches the same borrower');

    const [notice] = await mailFor(url, user.login);
    assert.equal(notice?.subject, `Your ${server.config.lender.name} sign-in email was changed`);
    assert.ok(
      notice.text.includes(`Call us right away at ${server.config.lender.supportPhone}`),
      notice.text,
    );
    assert.deepEqual(
      notice.links.filter((link) => link.includes('/email-change/')),
      [],
    );
  });

  it('refuses a link used twice', async () => {
    const { token } = await signedInBorrower();
    const target = newAddress();
    assert.equal((await ask(token, { newEmail: target })).status, 202);
    const link = changeTokenOf((await mailFor(url, target))[0]!);
    assert.equal((await confirm(token, { token: link })).status, 200);
    const again = await confirm(token, { token: link });
    assert.equal(again.status, 400);
    assert.deepEqual(again.body, {
      error: API_ERROR_CODES.invalidLink,
      message: EMAIL_CHANGE_LINK_PROBLEM,
    });
  });

  it('uses a link once under concurrency: of 20 parallel uses exactly one changes the address', async () => {
    const { user, token } = await signedInBorrower();
    const target = newAddress();
    assert.equal((await ask(token, { newEmail: target })).status, 202);
    const link = changeTokenOf((await mailFor(url, target))[0]!);
    const answers = await Promise.all(Array.from({ length: 20 }, () => confirm(token, { token: link })));
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, ...Array<number>(19).fill(400)]);
    const [notice, ...more] = await mailFor(url, user.login);
    assert.ok(notice);
    assert.equal(more.length, 0, 'the old address is told once');
  });

  it('refuses another borrower’s link, and leaves it usable by its owner', async () => {
    const owner = await signedInBorrower();
    const stranger = await signedInBorrower();
    const target = newAddress();
    assert.equal((await ask(owner.token, { newEmail: target })).status, 202);
    const link = changeTokenOf((await mailFor(url, target))[0]!);

    const stolen = await confirm(stranger.token, { token: link });
    assert.equal(stolen.status, 400);
    assert.equal(stolen.body.message, EMAIL_CHANGE_LINK_PROBLEM);
    assert.equal((await current(stranger.token)).email, stranger.user.login);

    assert.equal((await confirm(owner.token, { token: link })).status, 200);
    assert.equal((await current(owner.token)).email, target);
  });

  it('answers the same for another account’s address, and tells that address’s owner instead', async () => {
    const { user, token } = await signedInBorrower();
    const other = await createUser(server, PASSWORD);

    const free = await ask(token, { newEmail: newAddress() });
    const taken = await ask(token, { newEmail: other.login });
    assert.equal(taken.status, free.status);
    assert.deepEqual(taken.body, free.body);

    const [notice] = await mailFor(url, other.login);
    assert.equal(notice?.subject, `Someone tried to use your email address at ${server.config.lender.name}`);
    assert.deepEqual(
      notice.links.filter((link) => link.includes('/email-change/')),
      [],
      'no link to use',
    );
    const kept = await server.server.db
      .selectFrom('link_token')
      .select('id')
      .where('new_email', '=', other.login)
      .execute();
    assert.deepEqual(kept, [], 'the link written for it was rolled back');
    assert.equal((await current(token)).email, user.login);
  });

  it('refuses the change at the link when the address was taken meanwhile', async () => {
    const { user, token } = await signedInBorrower();
    const target = newAddress();
    assert.equal((await ask(token, { newEmail: target })).status, 202);
    const link = changeTokenOf((await mailFor(url, target))[0]!);
    await server.server.identityProvider!.users.create({
      login: target,
      password: PASSWORD,
      firstName: 'Quick',
      lastName: 'Taker',
    });

    const refused = await confirm(token, { token: link });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error, ACCOUNT_ERROR_CODES.emailTaken);
    assert.match(String(refused.body.message), /belongs to another account/);
    assert.equal((await current(token)).email, user.login);
    assert.equal(await signsInWith(user.login), true);
  });

  it('asks for a recent sign-in: a session begun more than 10 minutes ago gets step_up_required', async () => {
    const { user, token } = await signedInBorrower();
    const stale = await signedInAgo(server, token, STEP_UP_MAX_AGE_SECONDS + 60);
    const target = newAddress();

    const refused = await ask(stale, { newEmail: target });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, STEP_UP_REQUIRED);
    assert.equal(refused.body.message, 'To change your email address, confirm it’s you.');
    assert.equal((await current(stale)).email, user.login, 'the stale session still reads');

    const fresh = await signedInAgo(server, token, STEP_UP_MAX_AGE_SECONDS - 60);
    assert.equal((await ask(fresh, { newEmail: target })).status, 202, 'a recent one is let through');
    // The refused request came first: had it sent a link, it would be here with the accepted one's.
    assert.equal((await mailFor(url, target)).length, 1, 'only the accepted request sent a link');
  });

  it('refuses bad bodies with 400 and a clear message, and callers without a session with 401', async () => {
    const { user, token } = await signedInBorrower();
    for (const body of [
      {},
      { newEmail: 'not-an-address' },
      { newEmail: 'nul\u0000@example.org' },
      { newEmail: 42 },
    ]) {
      const refused = await ask(token, body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.equal(typeof refused.body.message, 'string');
    }
    assert.match(
      String((await ask(token, { newEmail: 'not-an-address' })).body.message),
      /Invalid email address\./,
    );
    const same = await ask(token, { newEmail: user.login.toUpperCase() });
    assert.equal(same.status, 400);
    assert.equal(same.body.error, ACCOUNT_ERROR_CODES.emailUnchanged);

    for (const body of [{}, { token: '' }, { token: 'x'.repeat(500) }])
      assert.equal((await confirm(token, body)).status, 400, JSON.stringify(body));
    assert.equal((await confirm(token, { token: 'never-issued' })).body.message, EMAIL_CHANGE_LINK_PROBLEM);

    assert.equal((await ask(undefined, { newEmail: newAddress() })).status, 401);
    assert.equal((await confirm(undefined, { token: 'never-issued' })).status, 401);
  });

  it('limits requests per borrower and per new address, and the limit reveals nothing about the address', async () => {
    const { token } = await signedInBorrower();
    const target = newAddress('limited');
    assert.equal((await ask(token, { newEmail: target })).status, 202);
    assert.equal((await ask(token, { newEmail: target })).status, 202);
    const third = await ask(token, { newEmail: target });
    assert.equal(third.status, 429, 'two per address from one borrower');
    assert.equal(third.body.error, ACCOUNT_ERROR_CODES.emailChangeLimited);
    assert.equal((await mailFor(url, target, 2)).length, 2);

    assert.equal((await ask(token, { newEmail: newAddress() })).status, 202);
    assert.equal((await ask(token, { newEmail: newAddress() })).status, 429, 'four requests per borrower');

    // Per address, from all borrowers together: a third borrower reaches the address's ceiling of 3.
    const shared = newAddress('shared');
    for (let i = 0; i < 3; i += 1) {
      const { token: someone } = await signedInBorrower();
      assert.equal((await ask(someone, { newEmail: shared })).status, 202);
    }
    const { token: fourth } = await signedInBorrower();
    assert.equal((await ask(fourth, { newEmail: shared })).status, 429);
    assert.equal((await mailFor(url, shared, 3)).length, 3);
  });
});
