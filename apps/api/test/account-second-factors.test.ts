import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import {
  ACCOUNT_ERROR_CODES,
  SECOND_FACTOR_ERROR_CODES,
  secondFactorEndpoints,
  TOO_MANY_CHANGES_MESSAGE,
} from '@customer-core/contracts';
import { ACCOUNT_CHANGES_PER_WINDOW } from '../src/account/change-limit.js';
import { startTestServer, type TestServer } from '../testing/index.js';
import { authn, createUser, mailFor } from './support/links.js';
import { accessTokenOf, call } from './support/loans.js';

// The borrower's authenticator app from the account page (/api/account/factors...). Under
// MFA_POLICY=required: sign-in-second-factor.test.ts; under off: account-email-recovery-codes.test.ts.

const PASSWORD = 'Original-Pass-1';

function codeFor(secret: string, stepsAhead = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + stepsAhead * 30_000,
  });
}
/** A six-digit code the app does not show now, nor one step either side. */
function wrongCodeFor(secret: string): string {
  const near = new Set([-1, 0, 1].map((step) => codeFor(secret, step)));
  for (let n = 0; ; n += 1) if (!near.has(String(n).padStart(6, '0'))) return String(n).padStart(6, '0');
}

describe(`the borrower's authenticator app`, () => {
  let optional: TestServer;

  before(async () => {
    // The client's network counts for the lockout: checks of the outcome sign in from another one.
    optional = await startTestServer('pglite', { TRUST_PROXY: 'true', MFA_POLICY: 'optional' });
  });
  after(async () => {
    await optional?.close();
  });

  /** A borrower signed in with the password alone (no factor yet): their access token. */
  async function signedIn(server: TestServer) {
    const user = await createUser(server, PASSWORD);
    return { ...user, token: await accessTokenOf(server.baseUrl, user.login, PASSWORD) };
  }
  const list = (server: TestServer, token: string) =>
    call(server.baseUrl, 'GET', secondFactorEndpoints.list.path, token);
  const enrol = (server: TestServer, token: string) =>
    call(server.baseUrl, 'POST', secondFactorEndpoints.enrolAuthenticatorApp.path, token);
  const activate = (server: TestServer, token: string, factorId: string, code: string) =>
    call(server.baseUrl, 'POST', secondFactorEndpoints.activate.href({ factorId }), token, { code });
  const remove = (server: TestServer, token: string, factorId: string, currentPassword: string) =>
    call(server.baseUrl, 'POST', secondFactorEndpoints.remove.href({ factorId }), token, {
      currentPassword,
    });

  /** A borrower with an activated app: its id and secret. */
  async function withApp(server: TestServer) {
    const borrower = await signedIn(server);
    const started = await enrol(server, borrower.token);
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const factorId = String(started.body.factorId);
    const secret = String(started.body.sharedSecret);
    const added = await activate(server, borrower.token, factorId, codeFor(secret));
    assert.equal(added.status, 200, JSON.stringify(added.body));
    return { ...borrower, factorId, secret };
  }

  it('adds an app with its first code, lists it, asks for it at sign-in, and e-mails the borrower', async () => {
    const borrower = await signedIn(optional);
    assert.deepEqual((await list(optional, borrower.token)).body, {
      factors: [],
      policy: 'optional',
      passkeysAddedHere: true,
    });

    const started = await enrol(optional, borrower.token);
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const secret = String(started.body.sharedSecret);
    const factorId = String(started.body.factorId);
    assert.match(secret, /^[A-Z2-7]{32}$/);
    assert.equal(started.body.accountName, borrower.login, 'what the app names the account by');

    const wrong = await activate(optional, borrower.token, factorId, wrongCodeFor(secret));
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error, SECOND_FACTOR_ERROR_CODES.wrongCode);
    assert.equal(
      wrong.body.message,
      'That code didn’t work. Check your app and enter the code it shows now.',
    );
    assert.deepEqual((await list(optional, borrower.token)).body.factors, [], 'a pending app is not listed');

    const code = codeFor(secret);
    assert.equal((await activate(optional, borrower.token, factorId, code)).status, 200);
    const replay = await activate(optional, borrower.token, factorId, code);
    assert.equal(replay.status, 404, 'an active app has nothing left to confirm');

    const listed = (await list(optional, borrower.token)).body.factors as Array<Record<string, unknown>>;
    assert.equal(listed.length, 1);
    assert.equal(listed[0]?.id, factorId);
    assert.equal(listed[0]?.type, 'authenticator_app');
    assert.match(String(listed[0]?.addedAt), /^\d{4}-\d\d-\d\dT/);
    assert.equal(listed[0]?.lastUsedAt, null);

    const signIn = await authn(optional.baseUrl, borrower.login, PASSWORD, '192.0.2.20');
    assert.equal(((await signIn.json()) as { status: string }).status, 'MFA_REQUIRED');

    const [mail] = await mailFor(optional.baseUrl, borrower.login);
    assert.equal(
      mail?.subject,
      `An authenticator app was added to your ${optional.config.lender.name} account`,
    );
    assert.ok(mail.text.includes(`Call us right away at ${optional.config.lender.supportPhone}`), mail.text);
    assert.ok(!mail.text.includes(secret) && !mail.html.includes(secret), 'the secret is never mailed');

    const again = await enrol(optional, borrower.token);
    assert.equal(again.status, 400);
    assert.equal(again.body.error, SECOND_FACTOR_ERROR_CODES.alreadyAdded);
  });

  it('removes an app after the current password, refusing a wrong one and counting it against the lockout', async () => {
    const borrower = await withApp(optional);
    const wrong = await remove(optional, borrower.token, borrower.factorId, 'Not-My-Pass-1');
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error, ACCOUNT_ERROR_CODES.wrongPassword);
    assert.equal(((await list(optional, borrower.token)).body.factors as unknown[]).length, 1, 'still there');

    const removed = await remove(optional, borrower.token, borrower.factorId, PASSWORD);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual((await list(optional, borrower.token)).body.factors, []);
    const signIn = await authn(optional.baseUrl, borrower.login, PASSWORD, '192.0.2.21');
    assert.equal(((await signIn.json()) as { status: string }).status, 'SUCCESS');
    const messages = await mailFor(optional.baseUrl, borrower.login, 2);
    assert.ok(
      messages.some(
        (m) =>
          m.subject === `An authenticator app was removed from your ${optional.config.lender.name} account`,
      ),
      messages.map((m) => m.subject).join('; '),
    );

    // Ten wrong passwords from one network lock it there, as ten wrong sign-ins do.
    const next = await withApp(optional);
    for (let i = 0; i < 10; i += 1)
      assert.equal((await remove(optional, next.token, next.factorId, `Wrong-${i}-Pass`)).status, 400);
    const locked = await remove(optional, next.token, next.factorId, PASSWORD);
    assert.equal(locked.body.error, ACCOUNT_ERROR_CODES.wrongPassword, 'even the right one, while locked');
    assert.equal(((await list(optional, next.token)).body.factors as unknown[]).length, 1);
  });

  it("answers another borrower's factor, an unknown and a malformed id 404, and leaves the app alone", async () => {
    const owner = await withApp(optional);
    const other = await signedIn(optional);
    for (const answer of [
      await remove(optional, other.token, owner.factorId, other.password),
      await activate(optional, other.token, owner.factorId, codeFor(owner.secret, 1)),
      await remove(optional, other.token, 'ufunknown0000000000', other.password),
      await remove(optional, other.token, 'not an id!', other.password),
    ]) {
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.error, 'not_found');
    }
    assert.equal(((await list(optional, owner.token)).body.factors as unknown[]).length, 1);
    assert.equal((await list(optional, undefined as unknown as string)).status, 401);
  });

  it('answers bad bodies 400, never 5xx', async () => {
    const borrower = await signedIn(optional);
    const started = await enrol(optional, borrower.token);
    const factorId = String(started.body.factorId);
    for (const body of [
      {},
      [],
      'text',
      null,
      { code: 123456 },
      { code: '12345' },
      { code: '1234567' },
      { code: 'abcdef' },
    ]) {
      const answer = await call(
        optional.baseUrl,
        'POST',
        secondFactorEndpoints.activate.href({ factorId }),
        borrower.token,
        body,
      );
      assert.equal(answer.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`);
      assert.equal(typeof answer.body.message, 'string');
    }
    for (const body of [
      {},
      { currentPassword: '' },
      { currentPassword: 42 },
      { currentPassword: 'x'.repeat(10_000) },
      { currentPassword: 'a\u0000b' },
    ]) {
      const answer = await call(
        optional.baseUrl,
        'POST',
        secondFactorEndpoints.remove.href({ factorId }),
        borrower.token,
        body,
      );
      assert.equal(answer.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`);
    }
  });

  it('refuses adding or removing past the ceiling on changes with 429; a wrong code uses none of it', async () => {
    const borrower = await signedIn(optional);
    let changes = 0;
    while (changes < ACCOUNT_CHANGES_PER_WINDOW) {
      const started = await enrol(optional, borrower.token);
      const secret = String(started.body.sharedSecret);
      const factorId = String(started.body.factorId);
      assert.equal((await activate(optional, borrower.token, factorId, wrongCodeFor(secret))).status, 400);
      assert.equal((await activate(optional, borrower.token, factorId, codeFor(secret))).status, 200);
      assert.equal((await remove(optional, borrower.token, factorId, PASSWORD)).status, 200);
      changes += 2;
    }
    const started = await enrol(optional, borrower.token);
    const factorId = String(started.body.factorId);
    const refused = await activate(
      optional,
      borrower.token,
      factorId,
      codeFor(String(started.body.sharedSecret)),
    );
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, ACCOUNT_ERROR_CODES.tooManyChanges);
    assert.equal(refused.body.message, TOO_MANY_CHANGES_MESSAGE);
    assert.deepEqual((await list(optional, borrower.token)).body.factors, [], 'nothing was added');
  });
});
