import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import {
  accountEndpoints,
  authEndpoints,
  STEP_UP_CODE_ERROR_CODES,
  STEP_UP_CODE_MAX_SENDS,
  STEP_UP_CODE_MAX_TRIES,
  STEP_UP_CODE_MAX_WRONG_PER_WINDOW,
  STEP_UP_REQUIRED,
  stepUpEndpoints,
} from '@customer-core/contracts';
import { completeSignInWithSessionToken, startTestServer, type TestServer } from '../testing/index.js';
import { createUser, LINK_LIMITS_LIFTED, mailFor, tokenOf } from './support/links.js';
import { call } from './support/loans.js';
import { claimsOf, json, post } from './support/session.js';
import { ProductTokens, type ProductTokenClaims } from '../src/session/product-token.js';
import { signingKeyRepository } from '../src/session/signing-key-repository.js';
import { ProductKeyRing } from '../src/session/signing-keys.js';

// A borrower signed in by e-mailed link, who does not know their password, confirms it's them before a
// sensitive action with a code e-mailed to their sign-in address: once, in the session that asked for
// it, for 5 minutes, within 5 tries; and never in place of the second factor they have.

type Claims = ReturnType<typeof claimsOf> & { amr?: string[] };

const totp = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });

describe('step-up by a code e-mailed to the sign-in address', () => {
  let server: TestServer;
  let url: string;

  before(async () => {
    server = await startTestServer('pglite', { MFA_POLICY: 'optional', ...LINK_LIMITS_LIFTED });
    url = server.baseUrl;
  });
  after(() => server?.close());

  /** A new user signed in by e-mailed link: their product token, as the link's page gets it. */
  async function signedInByLink(login?: string) {
    const user = login ? undefined : await createUser(server);
    const address = login ?? user!.login;
    const before = (await mailFor(url, address, 0)).length;
    assert.equal((await post(url, authEndpoints.sendMagicLinkEmail.path, { email: address })).status, 200);
    const [newest] = await mailFor(url, address, before + 1);
    const used = await json<{ access_token: string }>(
      await post(url, authEndpoints.magicLinkLogin.path, { token: tokenOf(newest!, 'magic-link-landing') }),
    );
    assert.equal(used.status, 200, JSON.stringify(used.body));
    return { login: address, id: user?.id, token: used.body.access_token };
  }

  const changeEmail = (token: string) =>
    call(url, 'POST', accountEndpoints.changeEmail.path, token, {
      newEmail: `new.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`,
    });
  const sendCode = (token: string) => call(url, 'POST', stepUpEndpoints.sendCode.path, token);
  const verify = (token: string, code: string) =>
    call(url, 'POST', stepUpEndpoints.verifyCode.path, token, { code });

  /** Sends a code and reads it from the newest message to the address (its subject starts with it). */
  async function codeFor(token: string, login: string) {
    const before = (await mailFor(url, login, 0)).length;
    const sent = await sendCode(token);
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    assert.deepEqual(sent.body, { sentTo: login });
    const [newest] = await mailFor(url, login, before + 1);
    const code = /^(\d{6}) is your .* confirmation code$/.exec(newest!.subject)?.[1];
    assert.ok(code, newest!.subject);
    return code;
  }

  /** The product token the session token leads to, as the portal gets it (authorize, then exchange). */
  async function exchanged(sessionToken: string) {
    const tokens = await completeSignInWithSessionToken(url, sessionToken);
    assert.ok(tokens);
    const answer = await json<{ access_token: string }>(
      await post(url, authEndpoints.tokenExchange.path, { token: tokens.idToken }),
    );
    assert.equal(answer.status, 200);
    return answer.body.access_token;
  }

  it('offers the e-mailed code and the password to a link-signed-in borrower, and the code steps up', async () => {
    const borrower = await signedInByLink();
    const refused = await changeEmail(borrower.token);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, STEP_UP_REQUIRED, 'a link sign-in is no step-up');

    const ways = await call(url, 'GET', stepUpEndpoints.ways.path, borrower.token);
    assert.deepEqual(ways.body, { passkey: false, emailCode: true, password: true });

    const code = await codeFor(borrower.token, borrower.login);
    const wrong = await verify(borrower.token, code === '000000' ? '111111' : '000000');
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error, STEP_UP_CODE_ERROR_CODES.wrongCode);

    const right = await verify(borrower.token, ` ${code} `);
    assert.equal(right.status, 200, JSON.stringify(right.body));
    const { sessionToken } = right.body as { sessionToken: string };
    assert.ok(sessionToken, 'a fresh sign-in at the identity provider');
    const fresh = await exchanged(sessionToken);
    const claims = claimsOf(fresh) as Claims;
    assert.deepEqual(claims.amr, ['email'], 'the mailbox, neither a password nor a one-time password');
    assert.equal(claims.sub, claimsOf(borrower.token).sub, 'the same borrower');
    assert.equal((await changeEmail(fresh)).status, 202, 'the step-up holds');

    const replay = await verify(borrower.token, code);
    assert.equal(replay.body.error, STEP_UP_CODE_ERROR_CODES.codeSpent, 'the code works once');
  });

  it('binds the code to the session that asked for it, and to its borrower', async () => {
    const borrower = await signedInByLink();
    const otherSession = await signedInByLink(borrower.login);
    const stranger = await signedInByLink();
    const code = await codeFor(borrower.token, borrower.login);
    assert.equal((await verify(otherSession.token, code)).body.error, STEP_UP_CODE_ERROR_CODES.codeSpent);
    assert.equal((await verify(stranger.token, code)).body.error, STEP_UP_CODE_ERROR_CODES.codeSpent);
    assert.equal((await verify(borrower.token, code)).status, 200, 'still good where it was asked for');
  });

  it(`takes ${STEP_UP_CODE_MAX_TRIES} wrong tries a code and ${STEP_UP_CODE_MAX_WRONG_PER_WINDOW} a window, then refuses even the right code; expires`, async () => {
    const borrower = await signedInByLink();
    const code = await codeFor(borrower.token, borrower.login);
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let i = 1; i <= STEP_UP_CODE_MAX_TRIES; i += 1) {
      const wrong = await verify(borrower.token, i === 2 ? 'not a code' : wrongCode);
      assert.equal(wrong.body.error, STEP_UP_CODE_ERROR_CODES.wrongCode, `try ${i}`);
    }
    assert.equal((await verify(borrower.token, code)).body.error, STEP_UP_CODE_ERROR_CODES.codeSpent);

    const next = await codeFor(borrower.token, borrower.login);
    await server.server.db
      .updateTable('step_up_code')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('borrower_id', '=', claimsOf(borrower.token).sub)
      .execute();
    assert.equal((await verify(borrower.token, next)).body.error, STEP_UP_CODE_ERROR_CODES.codeSpent);

    // The window's wrong tries are shared by its codes: past them, none is checked, the right one neither.
    await codeFor(borrower.token, borrower.login);
    for (let i = STEP_UP_CODE_MAX_TRIES; i < STEP_UP_CODE_MAX_WRONG_PER_WINDOW; i += 1)
      assert.equal((await verify(borrower.token, wrongCode)).body.error, STEP_UP_CODE_ERROR_CODES.wrongCode);
    const fourth = await codeFor(borrower.token, borrower.login);
    const paused = await verify(borrower.token, fourth);
    assert.equal(paused.status, 429);
    assert.equal(paused.body.error, STEP_UP_CODE_ERROR_CODES.tooManyTries);
  });

  it(`sends ${STEP_UP_CODE_MAX_SENDS} codes in a window, then refuses with 429`, async () => {
    const borrower = await signedInByLink();
    for (let i = 0; i < STEP_UP_CODE_MAX_SENDS; i += 1)
      assert.equal((await sendCode(borrower.token)).status, 202);
    const refused = await sendCode(borrower.token);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, STEP_UP_CODE_ERROR_CODES.tooManyCodes);
  });

  it('never stands in for an authenticator app the borrower has: the app comes next', async () => {
    const borrower = await signedInByLink();
    const idp = server.server.identityProvider!;
    const enrolled = await idp.factors.enrolTotp(borrower.id!);
    assert.equal(enrolled.kind, 'enrolled');
    const factor = enrolled.kind === 'enrolled' ? enrolled.factor : undefined;
    const app = totp(factor!.secret!);
    assert.equal((await idp.factors.activate(borrower.id!, factor!.id, app.generate())).kind, 'activated');

    // A sign-in by the mailbox alone, however recent, is not enough for a borrower with an app.
    const tokens = new ProductTokens(
      await ProductKeyRing.open(signingKeyRepository(server.server.db, server.server.secrets)),
      { issuer: url, ttlSeconds: 900, sessionMaxAgeSeconds: 12 * 3600 },
    );
    const claims = claimsOf(borrower.token) as ProductTokenClaims;
    const mailboxOnly = tokens.issue(
      { borrowerId: claims.sub, email: claims.email, externalIds: claims.external_ids },
      tokens.newSession(Date.now(), { amr: ['email'], authTime: null }),
    ).token;
    const refused = await changeEmail(mailboxOnly);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, STEP_UP_REQUIRED);

    const code = await codeFor(borrower.token, borrower.login);
    const right = await verify(borrower.token, code);
    assert.equal(right.status, 200);
    const { stateToken } = right.body as { stateToken?: string; sessionToken?: string };
    assert.ok(stateToken, 'the second factor, not a session');
    assert.equal((right.body as { sessionToken?: string }).sessionToken, undefined);

    const state = await json<{
      status: string;
      _embedded: { factors: Array<{ factorType: string; _links: { verify: { href: string } } }> };
    }>(await post(url, '/api/v1/authn/introspect', { stateToken }));
    assert.equal(state.body.status, 'MFA_REQUIRED');
    const verifyApp = state.body._embedded.factors.find((f) => f.factorType === 'token:software:totp')!;
    const done = await json<{ sessionToken: string }>(
      await post(url, new URL(verifyApp._links.verify.href).pathname, {
        stateToken,
        passCode: app.generate({ timestamp: Date.now() + 30_000 }),
      }),
    );
    const fresh = await exchanged(done.body.sessionToken);
    assert.deepEqual((claimsOf(fresh) as Claims).amr, ['email', 'otp', 'mfa']);
    assert.equal((await changeEmail(fresh)).status, 202);
  });
});
