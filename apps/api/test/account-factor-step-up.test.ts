import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import {
  authEndpoints,
  passkeyEndpoints,
  SECOND_FACTOR_ERROR_CODES,
  secondFactorEndpoints,
  STEP_UP_MAX_AGE_SECONDS,
  STEP_UP_REQUIRED,
} from '@customer-core/contracts';
import { EMAIL_CODE_MAX_SENDS, ENROLMENT_MAX_WRONG_CODES } from '@customer-core/idp';
import {
  completeSignInWithSessionToken,
  signedInAgo,
  signInThroughIdp,
  startTestServer,
  type TestServer,
} from '../testing/index.js';
import { SoftwareAuthenticator } from '../../idp/test/software-authenticator.js';
import { createUser, mailFor } from './support/links.js';
import { call } from './support/loans.js';
import { json, post } from './support/session.js';

// Adding a way to sign in (an authenticator app, email codes, a passkey) takes a recent sign-in, as
// changing the email does: a stolen access token must not add the thief's authenticator. And the
// first code of a factor being added has a ceiling: past it the enrolment must be started again.

const PASSWORD = 'Original-Pass-1';
const STALE = STEP_UP_MAX_AGE_SECONDS + 60;

const codeFor = (secret: string, stepsAhead = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + stepsAhead * 30_000,
  });
/** Six-digit codes the app shows neither now nor a step either side. */
function wrongCodesFor(secret: string, count: number): string[] {
  const near = new Set([-1, 0, 1].map((step) => codeFor(secret, step)));
  const codes: string[] = [];
  for (let n = 0; codes.length < count; n += 1)
    if (!near.has(String(n).padStart(6, '0'))) codes.push(String(n).padStart(6, '0'));
  return codes;
}
/** The code of a mailed code's message, from its subject. */
const mailedCode = (mail: { subject: string }) => /^(\d{6}) is your /.exec(mail.subject)?.[1] ?? '';

describe('adding a way to sign in needs a recent sign-in; first codes have a ceiling', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('pglite', { MFA_POLICY: 'optional' });
  });
  after(() => server?.close());

  /** The ID token of a sign-in as the portal makes it, exchanged for the portal's access token. */
  async function exchange(idToken: string) {
    const { status, body } = await json<{ access_token: string }>(
      await post(server.baseUrl, authEndpoints.tokenExchange.path, { token: idToken }),
    );
    assert.equal(status, 200, JSON.stringify(body));
    return body.access_token;
  }
  /** A password sign-in (the borrower has no factor yet): their access token. */
  async function signIn(login: string) {
    return exchange(
      (await signInThroughIdp(server.baseUrl, { username: login, password: PASSWORD })).idToken,
    );
  }
  /**
   * The step-up of a borrower with an authenticator app: the password, then its code (the next
   * step's, within the window: the current step's was taken when the app was added).
   */
  async function signInWithApp(login: string, secret: string) {
    const first = await json<{
      status: string;
      stateToken: string;
      _embedded: { factors: Array<{ factorType: string; _links: { verify: { href: string } } }> };
    }>(await post(server.baseUrl, '/api/v1/authn', { username: login, password: PASSWORD }));
    assert.equal(first.body.status, 'MFA_REQUIRED');
    const app = first.body._embedded.factors.find((f) => f.factorType === 'token:software:totp')!;
    const verified = await json<{ status: string; sessionToken: string }>(
      await post(server.baseUrl, new URL(app._links.verify.href).pathname, {
        stateToken: first.body.stateToken,
        passCode: codeFor(secret, 1),
      }),
    );
    assert.equal(verified.body.status, 'SUCCESS', JSON.stringify(verified.body));
    const tokens = await completeSignInWithSessionToken(server.baseUrl, verified.body.sessionToken);
    assert.ok(tokens);
    return exchange(tokens.idToken);
  }

  const enrolApp = (token: string) =>
    call(server.baseUrl, 'POST', secondFactorEndpoints.enrolAuthenticatorApp.path, token);
  const enrolEmail = (token: string) =>
    call(server.baseUrl, 'POST', secondFactorEndpoints.enrolEmail.path, token);
  const activate = (token: string, factorId: string, code: string) =>
    call(server.baseUrl, 'POST', secondFactorEndpoints.activate.href({ factorId }), token, { code });
  const enrolPasskey = (token: string) => call(server.baseUrl, 'POST', passkeyEndpoints.enrol.path, token);
  const activatePasskey = (token: string, factorId: string, body: unknown) =>
    call(server.baseUrl, 'POST', passkeyEndpoints.activate.href({ factorId }), token, body);
  const listed = async (token: string) =>
    ((await call(server.baseUrl, 'GET', secondFactorEndpoints.list.path, token)).body.factors as unknown[])
      .length;

  function refusedForStepUp(answer: { status: number; body: Record<string, unknown> }, what: string) {
    assert.equal(answer.status, 403, `${what}: ${JSON.stringify(answer.body)}`);
    assert.equal(answer.body.error, STEP_UP_REQUIRED, what);
    assert.match(String(answer.body.message), /confirm it’s you\.$/, what);
  }

  it('refuses to start or confirm an app, email codes or a passkey on a sign-in over 10 minutes old; after a step-up each works', async () => {
    const user = await createUser(server, PASSWORD);
    const fresh = await signIn(user.login);
    const stale = await signedInAgo(server, fresh, STALE);

    refusedForStepUp(await enrolApp(stale), 'start an app');
    refusedForStepUp(await enrolEmail(stale), 'start email codes');
    refusedForStepUp(await enrolPasskey(stale), 'start a passkey');

    // Enrolments started within the 10 minutes cannot be confirmed once the sign-in is older.
    const app = await enrolApp(fresh);
    assert.equal(app.status, 200, JSON.stringify(app.body));
    const secret = String(app.body.sharedSecret);
    refusedForStepUp(await activate(stale, String(app.body.factorId), codeFor(secret)), 'confirm an app');
    const authenticator = new SoftwareAuthenticator({ origin: server.baseUrl });
    const passkey = await enrolPasskey(fresh);
    assert.equal(passkey.status, 200, JSON.stringify(passkey.body));
    const credential = {
      name: 'Laptop',
      ...authenticator.create(passkey.body.options as Parameters<SoftwareAuthenticator['create']>[0]),
    };
    refusedForStepUp(
      await activatePasskey(stale, String(passkey.body.factorId), credential),
      'confirm a passkey',
    );
    assert.equal(await listed(fresh), 0, 'nothing was added');

    // The step-up: a new sign-in. Everything refused above now works; once the app is added, the
    // step-up takes its code too.
    const again = await signIn(user.login);
    assert.equal((await activate(again, String(app.body.factorId), codeFor(secret))).status, 200);
    refusedForStepUp(
      await activatePasskey(again, String(passkey.body.factorId), credential),
      'a passkey after the password alone, now that there is an app',
    );
    const withCode = await signInWithApp(user.login, secret);
    const added = await activatePasskey(withCode, String(passkey.body.factorId), credential);
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.equal(await listed(withCode), 2);
  });

  it('asks a borrower with an app, signed in with the password alone, for the code before adding email codes', async () => {
    const user = await createUser(server, PASSWORD);
    const passwordOnly = await signIn(user.login);
    const app = await enrolApp(passwordOnly);
    const secret = String(app.body.sharedSecret);
    assert.equal((await activate(passwordOnly, String(app.body.factorId), codeFor(secret))).status, 200);

    // The same sign-in, recent but without the app the borrower now has.
    refusedForStepUp(await enrolEmail(passwordOnly), 'email codes after the password alone');
    const withCode = await signInWithApp(user.login, secret);
    const email = await enrolEmail(withCode);
    assert.equal(email.status, 200, JSON.stringify(email.body));
    // The app's notice and the code, in either order.
    const code = (await mailFor(server.baseUrl, user.login, 2)).map(mailedCode).find(Boolean) ?? '';
    assert.match(code, /^\d{6}$/);
    assert.equal((await activate(withCode, String(email.body.factorId), code)).status, 200);
    assert.equal(await listed(withCode), 2);
  });

  it(`refuses an app's first code, even the right one, after ${ENROLMENT_MAX_WRONG_CODES} wrong ones; started again, it is added`, async () => {
    const user = await createUser(server, PASSWORD);
    const token = await signIn(user.login);
    const started = await enrolApp(token);
    const factorId = String(started.body.factorId);
    const secret = String(started.body.sharedSecret);
    for (const wrong of wrongCodesFor(secret, ENROLMENT_MAX_WRONG_CODES)) {
      const answer = await activate(token, factorId, wrong);
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error, SECOND_FACTOR_ERROR_CODES.wrongCode);
    }
    const spent = await activate(token, factorId, codeFor(secret));
    assert.equal(spent.status, 400, JSON.stringify(spent.body));
    assert.equal(spent.body.error, SECOND_FACTOR_ERROR_CODES.tooManyWrongCodes);
    assert.equal(
      spent.body.message,
      'That’s too many wrong codes, so we’ve stopped this one. Start adding it again.',
    );
    assert.equal(await listed(token), 0);

    const restarted = await enrolApp(token);
    const newSecret = String(restarted.body.sharedSecret);
    assert.notEqual(newSecret, secret, 'a new key to scan');
    assert.equal((await activate(token, String(restarted.body.factorId), codeFor(newSecret))).status, 200);
  });

  it(`refuses the mailed code of email codes, even the right one, after ${ENROLMENT_MAX_WRONG_CODES} wrong ones; started again, they are added`, async () => {
    const user = await createUser(server, PASSWORD);
    const token = await signIn(user.login);
    const started = await enrolEmail(token);
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const factorId = String(started.body.factorId);
    const [mail] = await mailFor(server.baseUrl, user.login);
    const code = mailedCode(mail!);
    const wrong = Array.from({ length: ENROLMENT_MAX_WRONG_CODES + 1 }, (_, n) => String(n).padStart(6, '0'))
      .filter((candidate) => candidate !== code)
      .slice(0, ENROLMENT_MAX_WRONG_CODES);
    for (const guess of wrong) {
      const answer = await activate(token, factorId, guess);
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error, SECOND_FACTOR_ERROR_CODES.wrongCode);
    }
    const spent = await activate(token, factorId, code);
    assert.equal(spent.status, 400, JSON.stringify(spent.body));
    assert.equal(spent.body.error, SECOND_FACTOR_ERROR_CODES.tooManyWrongCodes);
    assert.equal(await listed(token), 0);

    const restarted = await enrolEmail(token);
    assert.equal(restarted.status, 200, JSON.stringify(restarted.body));
    const [newest] = await mailFor(server.baseUrl, user.login, 2);
    const added = await activate(token, String(restarted.body.factorId), mailedCode(newest!));
    assert.equal(added.status, 200, JSON.stringify(added.body));
  });

  it('keeps the ceiling on email codes when starting again mails no new code (the send limit reached)', async () => {
    const user = await createUser(server, PASSWORD);
    const token = await signIn(user.login);
    // Each start mails a new code, up to the send limit; the pending factor stays the same.
    let factorId = '';
    for (let send = 1; send <= EMAIL_CODE_MAX_SENDS; send++) {
      const started = await enrolEmail(token);
      assert.equal(started.status, 200, JSON.stringify(started.body));
      factorId = String(started.body.factorId);
    }
    const mails = await mailFor(server.baseUrl, user.login, EMAIL_CODE_MAX_SENDS);
    const code = mails.map(mailedCode).find(Boolean) ?? '';
    const wrong = Array.from({ length: ENROLMENT_MAX_WRONG_CODES + 1 }, (_, n) => String(n).padStart(6, '0'))
      .filter((candidate) => candidate !== code)
      .slice(0, ENROLMENT_MAX_WRONG_CODES);
    for (const guess of wrong) assert.equal((await activate(token, factorId, guess)).status, 400);

    // Started again past the send limit: the same code stays live, so no new allowance of guesses.
    assert.notEqual((await enrolEmail(token)).status, 200);
    const spent = await activate(token, factorId, code);
    assert.equal(spent.status, 400, JSON.stringify(spent.body));
    assert.equal(spent.body.error, SECOND_FACTOR_ERROR_CODES.tooManyWrongCodes);
  });
});
