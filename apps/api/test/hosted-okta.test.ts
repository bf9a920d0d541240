import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import {
  ACCOUNT_ERROR_CODES,
  accountEndpoints,
  activityEndpoints,
  API_ERROR_CODES,
  authEndpoints,
  registrationEndpoints,
  PASSWORD_REFUSED_MESSAGE,
  SECOND_FACTOR_ERROR_CODES,
  secondFactorEndpoints,
  STEP_UP_CODE_ERROR_CODES,
  stepUpEndpoints,
} from '@customer-core/contracts';
import { Secret, TOTP } from 'otpauth';
import {
  freePort,
  idpBrowser,
  signInThroughIdp,
  startTestOrg,
  startTestServer,
  TEST_ORG_CLIENT_ID,
  type TestOrg,
  type TestServer,
} from '../testing/index.js';
import { invite, linkTokenOf, OPERATOR_ENV, uniqueEmail } from './support/joining.js';
import { authn, inbox, mailFor, tokenOf } from './support/links.js';
import { claimsOf, json, post } from './support/session.js';

// The deployment the spec describes: the portal on one origin, "the org" (the bundled identity
// provider as a process of its own, another port and database) on another, reached through Okta's
// Management and authn APIs with an API token. Every capability works as with the bundled provider.

const PASSWORD = 'Original-Pass-1';
const totpCode = (secret: string, stepsAhead = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + stepsAhead * 30_000,
  });
const NEW_PASSWORD = 'Renewed-Pass-2!';

describe('a hosted Okta org', () => {
  let org: TestOrg;
  let portal: TestServer;

  before(async () => {
    org = await startTestOrg('pglite', `http://localhost:${await freePort()}`);
    portal = await startTestServer('pglite', { ...OPERATOR_ENV, ...org.portalEnv });
  });
  after(async () => {
    await portal?.close();
    await org?.stop();
  });

  /** A user made in the org, as its administrator would (Okta's Users API). */
  async function orgUser(password = PASSWORD) {
    const login = uniqueEmail('org');
    const response = await fetch(`${org.url}/api/v1/users?activate=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `SSWS ${org.apiToken}` },
      body: JSON.stringify({
        profile: { firstName: 'Ada', lastName: 'Lovelace', email: login, login },
        credentials: { password: { value: password } },
      }),
    });
    assert.equal(response.status, 200, await response.clone().text());
    return { login, id: ((await response.json()) as { id: string }).id };
  }

  /** Signs the org's user in and exchanges the ID token, as the portal does: one product session. */
  async function signInWithOrg(login: string) {
    const { idToken } = await signInThroughIdp(
      org.url,
      { username: login, password: PASSWORD },
      TEST_ORG_CLIENT_ID,
      portal.baseUrl,
    );
    const { body } = await json<{ access_token: string }>(
      await post(portal.baseUrl, authEndpoints.tokenExchange.path, { token: idToken }),
    );
    return { token: body.access_token, orgSid: String(decodeJwt(idToken).sid) };
  }

  it('signs a borrower in with the org: its ID token is exchanged for a product token', async () => {
    const user = await orgUser();
    const tokens = await signInThroughIdp(
      org.url,
      { username: user.login, password: PASSWORD },
      TEST_ORG_CLIENT_ID,
      portal.baseUrl,
    );
    const exchanged = await json<{ access_token: string }>(
      await post(portal.baseUrl, authEndpoints.tokenExchange.path, { token: tokens.idToken }),
    );
    assert.equal(exchanged.status, 200);
    const borrower = await portal.server.db
      .selectFrom('borrower')
      .select(['idp_issuer', 'idp_subject', 'email'])
      .where('id', '=', claimsOf(exchanged.body.access_token).sub)
      .executeTakeFirstOrThrow();
    assert.deepEqual(borrower, { idp_issuer: org.issuer, idp_subject: user.id, email: user.login });
  });

  it('resets a password through the org, which then signs in with the new one only', async () => {
    const user = await orgUser();
    assert.equal(
      (await post(portal.baseUrl, authEndpoints.passwordReset.path, { email: user.login })).status,
      200,
    );
    const [message] = await mailFor(portal.baseUrl, user.login);
    const token = tokenOf(message!, 'password-reset');
    const finished = await post(portal.baseUrl, authEndpoints.passwordResetFinish.path, {
      token,
      password: NEW_PASSWORD,
    });
    assert.equal(finished.status, 200, await finished.clone().text());
    assert.equal((await authn(org.url, user.login, NEW_PASSWORD)).status, 200);
    assert.equal((await authn(org.url, user.login, PASSWORD)).status, 401);
  });

  it("says so on the same screen when the org's policy refuses the password, and keeps the link", async () => {
    const user = await orgUser();
    await post(portal.baseUrl, authEndpoints.passwordReset.path, { email: user.login });
    const [message] = await mailFor(portal.baseUrl, user.login);
    const token = tokenOf(message!, 'password-reset');
    // The portal's rules allow it; the org's default policy refuses a part of the username (its domain).
    const withName = `Example-Pass-3!`;
    const refused = await json<{ error: string; message: string }>(
      await post(portal.baseUrl, authEndpoints.passwordResetFinish.path, { token, password: withName }),
    );
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, API_ERROR_CODES.passwordRefused);
    assert.ok(refused.body.message.startsWith(PASSWORD_REFUSED_MESSAGE), refused.body.message);
    assert.match(refused.body.message, /username/);
    const again = await post(portal.baseUrl, authEndpoints.passwordResetFinish.path, {
      token,
      password: NEW_PASSWORD,
    });
    assert.equal(again.status, 200, 'the link works again after the refusal');
  });

  it('signs in by e-mailed link with a product session of its own (the org mints no session token)', async () => {
    const user = await orgUser();
    await post(portal.baseUrl, authEndpoints.sendMagicLinkEmail.path, { email: user.login });
    const [message] = await mailFor(portal.baseUrl, user.login);
    const signedIn = await json<{ access_token: string; sessionToken: string | null }>(
      await post(portal.baseUrl, authEndpoints.magicLinkLogin.path, {
        token: tokenOf(message!, 'magic-link-landing'),
      }),
    );
    assert.equal(signedIn.status, 200);
    assert.equal(signedIn.body.sessionToken, null);
    const validated = await post(portal.baseUrl, authEndpoints.validate.path, {
      access_token: signedIn.body.access_token,
    });
    assert.equal(validated.status, 200);
  });

  it('confirms a borrower signed in by link with an e-mailed code: the portal begins the session, the org minting none; never offered with an app', async () => {
    const user = await orgUser();
    await post(portal.baseUrl, authEndpoints.sendMagicLinkEmail.path, { email: user.login });
    const [link] = await mailFor(portal.baseUrl, user.login);
    const { body: signedIn } = await json<{ access_token: string }>(
      await post(portal.baseUrl, authEndpoints.magicLinkLogin.path, {
        token: tokenOf(link!, 'magic-link-landing'),
      }),
    );
    const call = (path: string, bearer: string, body?: unknown) =>
      fetch(`${portal.baseUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Bearer ${bearer}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then((response) => json<Record<string, unknown>>(response));
    const ways = await call(stepUpEndpoints.ways.path, signedIn.access_token);
    assert.deepEqual(ways.body, { passkey: false, emailCode: true, password: true });
    assert.equal((await call(stepUpEndpoints.sendCode.path, signedIn.access_token, {})).status, 202);
    const [codeMail] = await mailFor(portal.baseUrl, user.login, 2);
    const code = /^(\d{6}) is your /.exec(codeMail!.subject)?.[1];
    assert.ok(code, codeMail!.subject);
    const verified = await call(stepUpEndpoints.verifyCode.path, signedIn.access_token, { code });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    const fresh = String(verified.body.access_token);
    assert.deepEqual((claimsOf(fresh) as { amr?: string[] }).amr, ['email']);

    // A borrower with an app in the org: the org asks for no factor after a code, so none is sent.
    const { token } = await signInWithOrg(user.login);
    const started = await call(secondFactorEndpoints.enrolAuthenticatorApp.path, token, {});
    const factorId = String(started.body.factorId);
    const activated = await call(secondFactorEndpoints.activate.href({ factorId }), token, {
      code: totpCode(String(started.body.sharedSecret)),
    });
    assert.equal(activated.status, 200, JSON.stringify(activated.body));
    assert.deepEqual((await call(stepUpEndpoints.ways.path, token)).body, {
      passkey: false,
      emailCode: false,
      password: true,
    });
    const refused = await call(stepUpEndpoints.sendCode.path, token, {});
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, STEP_UP_CODE_ERROR_CODES.notOffered);
  });

  it('registers an invited borrower as a user of the org, signed in there at once', async () => {
    const email = uniqueEmail('invited');
    assert.equal(
      (await invite(portal.baseUrl, { email, firstName: 'Grace', lastName: 'Hopper' })).status,
      201,
    );
    const [message] = await mailFor(portal.baseUrl, email);
    const registered = await json<{ access_token: string; sessionToken: string | null }>(
      await post(portal.baseUrl, registrationEndpoints.register.path, {
        token: linkTokenOf(message!, '/user-registration/'),
        password: NEW_PASSWORD,
      }),
    );
    assert.equal(registered.status, 200);
    assert.ok(registered.body.sessionToken, 'the org signed the new user in');
    const found = await fetch(`${org.url}/api/v1/users/${encodeURIComponent(email)}`, {
      headers: { authorization: `SSWS ${org.apiToken}` },
    });
    assert.equal(found.status, 200);
    assert.equal((await authn(org.url, email, NEW_PASSWORD)).status, 200);
  });

  it("ends the borrower's org sessions on sign-out, so their ID tokens no longer sign in", async () => {
    const user = await orgUser();
    const sign = () =>
      signInThroughIdp(
        org.url,
        { username: user.login, password: PASSWORD },
        TEST_ORG_CLIENT_ID,
        portal.baseUrl,
      );
    const first = await sign();
    const exchanged = await json<{ access_token: string }>(
      await post(portal.baseUrl, authEndpoints.tokenExchange.path, { token: first.idToken }),
    );
    const second = await sign();
    assert.equal(
      (await post(portal.baseUrl, authEndpoints.logout.path, { access_token: exchanged.body.access_token }))
        .status,
      200,
    );
    const replay = await json<{ error: string }>(
      await post(portal.baseUrl, authEndpoints.tokenExchange.path, { token: second.idToken }),
    );
    assert.equal(replay.status, 401);
    assert.equal(replay.body.error, API_ERROR_CODES.idpSessionEnded);
  });

  it('ends one org session when the borrower signs that device out, and keeps the others', async () => {
    const user = await orgUser();
    const orgSession = async (sid: string) =>
      (
        await fetch(`${org.url}/api/v1/sessions/${sid}`, {
          headers: { authorization: `SSWS ${org.apiToken}`, accept: 'application/json' },
        })
      ).status;
    const laptop = await signInWithOrg(user.login);
    const phone = await signInWithOrg(user.login);
    assert.equal(await orgSession(phone.orgSid), 200);

    const ended = await fetch(
      `${portal.baseUrl}${accountEndpoints.endSession.href({ sessionId: claimsOf(phone.token).sid })}`,
      { method: 'POST', headers: { authorization: `Bearer ${laptop.token}` } },
    );
    assert.equal(ended.status, 200, await ended.clone().text());
    // Okta's DELETE /api/v1/sessions/{id}: that session is gone from the org, the other stays.
    assert.equal(await orgSession(phone.orgSid), 404);
    assert.equal(await orgSession(laptop.orgSid), 200);
  });

  it('ends every org session of the borrower with the other sessions, one the portal never saw too', async () => {
    const user = await orgUser();
    const { token: laptop } = await signInWithOrg(user.login);
    // Someone else with the password signs in at the org and keeps its cookie and the ID token.
    const kept = idpBrowser(org.url, TEST_ORG_CLIENT_ID, portal.baseUrl);
    const { idToken } = await kept.signIn({ username: user.login, password: PASSWORD });

    const ended = await fetch(`${portal.baseUrl}${accountEndpoints.endOtherSessions.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${laptop}` },
    });
    assert.equal(ended.status, 200, await ended.clone().text());

    // Okta's DELETE /api/v1/users/{id}/sessions: the org gives that browser no new code.
    assert.deepEqual(await kept.authorizeSilently(), { error: 'login_required' });
    const exchanged = await json<{ error?: string }>(
      await post(portal.baseUrl, authEndpoints.tokenExchange.path, { token: idToken }),
    );
    assert.equal(exchanged.status, 401, 'the kept ID token signed in');
    assert.equal(exchanged.body.error, API_ERROR_CODES.idpSessionEnded);
    const profile = await fetch(`${portal.baseUrl}${authEndpoints.profile.path}`, {
      headers: { authorization: `Bearer ${laptop}` },
    });
    assert.equal(profile.status, 200, 'the session it was done from goes on');
  });

  it("changes the password through the org's change_password: the old one checked there, its policy applied", async () => {
    const user = await orgUser();
    const { token: laptop } = await signInWithOrg(user.login);
    const { token: phone } = await signInWithOrg(user.login);
    const change = (body: Record<string, unknown>) =>
      fetch(`${portal.baseUrl}${accountEndpoints.password.path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${laptop}`, 'content-type': 'application/json' },
        body: JSON.stringify({ currentPassword: PASSWORD, signOutOtherSessions: true, ...body }),
      }).then((response) => json<{ error?: string; message?: string; endedSessions?: number }>(response));

    const wrong = await change({ currentPassword: 'Not-The-Pass-1', newPassword: NEW_PASSWORD });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error, ACCOUNT_ERROR_CODES.wrongPassword);
    // The portal's rules allow it; the org's default policy refuses a part of the username (its domain).
    const refused = await change({ newPassword: 'Example-Pass-3!' });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, API_ERROR_CODES.passwordRefused);
    assert.ok(refused.body.message?.startsWith(PASSWORD_REFUSED_MESSAGE), refused.body.message);

    const changed = await change({ newPassword: NEW_PASSWORD });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal(changed.body.endedSessions, 1);
    assert.equal((await authn(org.url, user.login, NEW_PASSWORD)).status, 200);
    assert.equal((await authn(org.url, user.login, PASSWORD)).status, 401);
    const other = await fetch(`${portal.baseUrl}${authEndpoints.profile.path}`, {
      headers: { authorization: `Bearer ${phone}` },
    });
    assert.equal(other.status, 401, 'the other device is signed out');
    const [mail] = await mailFor(portal.baseUrl, user.login);
    assert.match(mail!.subject, /password was changed$/);
  });

  it("keeps the borrower's authenticator app in the org, through its Factors API", async () => {
    const user = await orgUser();
    const other = await orgUser();
    const { token } = await signInWithOrg(user.login);
    const { token: otherToken } = await signInWithOrg(other.login);
    const portalCall = (path: string, body?: unknown, bearer = token) =>
      fetch(`${portal.baseUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Bearer ${bearer}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then((response) => json<Record<string, unknown>>(response));
    const orgFactors = async (userId: string) => {
      const response = await fetch(`${org.url}/api/v1/users/${userId}/factors`, {
        headers: { authorization: `SSWS ${org.apiToken}` },
      });
      return (await response.json()) as Array<{ id: string; status: string }>;
    };

    const started = await portalCall(secondFactorEndpoints.enrolAuthenticatorApp.path, {});
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const factorId = String(started.body.factorId);
    const secret = String(started.body.sharedSecret);
    assert.deepEqual(
      (await orgFactors(user.id)).map(({ id, status }) => ({ id, status })),
      [{ id: factorId, status: 'PENDING_ACTIVATION' }],
    );
    const wrong = await portalCall(secondFactorEndpoints.activate.href({ factorId }), {
      code: String((Number(totpCode(secret)) + 500_000) % 1_000_000).padStart(6, '0'),
    });
    assert.equal(wrong.body.error, SECOND_FACTOR_ERROR_CODES.wrongCode);
    const added = await portalCall(secondFactorEndpoints.activate.href({ factorId }), {
      code: totpCode(secret),
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.equal((await orgFactors(user.id))[0]?.status, 'ACTIVE');

    // The org now asks for it at sign-in; a code verified there shows as the app's last use.
    const mfa = (await (await authn(org.url, user.login, PASSWORD)).json()) as {
      status: string;
      stateToken: string;
    };
    assert.equal(mfa.status, 'MFA_REQUIRED');
    const verified = await post(org.url, `/api/v1/authn/factors/${factorId}/verify`, {
      stateToken: mfa.stateToken,
      passCode: totpCode(secret, 1),
    });
    assert.equal(verified.status, 200);
    const listed = await portalCall(secondFactorEndpoints.list.path);
    const [app] = listed.body.factors as Array<{ id: string; lastUsedAt: string | null }>;
    assert.equal(app?.id, factorId);
    assert.match(String(app?.lastUsedAt), /^\d{4}-/);

    // Another borrower's token cannot reach it.
    const stolen = await portalCall(
      secondFactorEndpoints.remove.href({ factorId }),
      { currentPassword: PASSWORD },
      otherToken,
    );
    assert.equal(stolen.status, 404);

    const wrongPassword = await portalCall(secondFactorEndpoints.remove.href({ factorId }), {
      currentPassword: 'Not-The-Pass-1',
    });
    assert.equal(wrongPassword.body.error, ACCOUNT_ERROR_CODES.wrongPassword);
    const removed = await portalCall(secondFactorEndpoints.remove.href({ factorId }), {
      currentPassword: PASSWORD,
    });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(await orgFactors(user.id), []);
    assert.equal(
      ((await (await authn(org.url, user.login, PASSWORD)).json()) as { status: string }).status,
      'SUCCESS',
    );
    const messages = await mailFor(portal.baseUrl, user.login, 2);
    assert.deepEqual(messages.map((m) => m.subject.replace(/ (to|from) your .*/, '')).sort(), [
      'An authenticator app was added',
      'An authenticator app was removed',
    ]);
  });

  it("shows the org's failed sign-ins (its System Log) in the borrower's security activity, as one streak", async () => {
    const user = await orgUser();
    for (let i = 0; i < 2; i++)
      assert.equal((await authn(org.url, user.login, 'Not-The-Password-5', '192.0.2.44')).status, 401);
    const { token } = await signInWithOrg(user.login);
    const activity = await json<{ events: Array<{ kind: string; attempts: number | null }> }>(
      await fetch(`${portal.baseUrl}${activityEndpoints.account.path}`, {
        headers: { authorization: `Bearer ${token}` },
      }),
    );
    assert.equal(activity.status, 200, JSON.stringify(activity.body));
    assert.deepEqual(
      activity.body.events.map(({ kind, attempts }) => [kind, attempts]),
      [
        ['signed_in', null],
        ['failed_sign_ins', 2],
      ],
    );
  });

  it('leaves the sign-in email to the lender: the account says so, and the change is refused clearly', async () => {
    const user = await orgUser();
    const { token } = await signInWithOrg(user.login);
    const request = (method: string, path: string, payload?: unknown) =>
      fetch(`${portal.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: payload === undefined ? undefined : JSON.stringify(payload),
      }).then((response) => json<{ error?: string; message?: string }>(response));

    const account = await request('GET', accountEndpoints.email.path);
    assert.deepEqual(account.body, { email: user.login, changeable: false });
    const target = uniqueEmail('moved');
    const refused = await request('POST', accountEndpoints.changeEmail.path, { newEmail: target });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error, ACCOUNT_ERROR_CODES.emailChangeWithLender);
    assert.equal(
      refused.body.message,
      `Your sign-in email address is changed with ${portal.config.lender.name}. Call us at ${portal.config.lender.supportPhone}.`,
    );
    const link = await request('POST', accountEndpoints.confirmEmail.path, { token: 'anything' });
    assert.equal(link.status, 409);
    assert.equal((await authn(org.url, user.login, PASSWORD)).status, 200, 'the org still has the old name');
    assert.deepEqual(await inbox(portal.baseUrl, target), [], 'no link was sent');
  });
});
