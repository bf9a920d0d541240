import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import {
  ACCOUNT_ERROR_CODES,
  accountApiPaths,
  API_ERROR_CODES,
  apiPaths,
  PASSWORD_REFUSED_MESSAGE,
} from '@customer-core/contracts';
import { testDatabaseKinds } from '@customer-core/database/testing';
import {
  freePort,
  signInThroughIdp,
  startTestOrg,
  startTestServer,
  TEST_ORG_CLIENT_ID,
  type TestOrg,
  type TestServer,
} from '../src/testing/index.js';
import { invite, linkTokenOf, OPERATOR_ENV, uniqueEmail } from './support/joining.js';
import { authn, inbox, mailFor, tokenOf } from './support/links.js';
import { claimsOf, json, post } from './support/session.js';

// The deployment the spec describes: the portal on one origin, "the org" (the bundled identity
// provider as a process of its own, another port and database) on another, reached through Okta's
// Management and authn APIs with an API token. Every capability works as with the bundled provider.

const PASSWORD = 'Original-Pass-1';
const NEW_PASSWORD = 'Renewed-Pass-2!';

for (const kind of testDatabaseKinds()) {
  describe(`a hosted Okta org (${kind})`, () => {
    let org: TestOrg;
    let portal: TestServer;

    before(async () => {
      const port = await freePort();
      const portalUrl = `http://localhost:${port}`;
      org = await startTestOrg(kind, portalUrl);
      portal = await startTestServer(kind, {
        ...OPERATOR_ENV,
        PORT: String(port),
        PUBLIC_URL: portalUrl,
        IDP_BUNDLED: 'false',
        IDP_ISSUER: org.issuer,
        IDP_CLIENT_ID: TEST_ORG_CLIENT_ID,
        OKTA_API_TOKEN: org.apiToken,
      });
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

    it('signs a borrower in with the org: its ID token is exchanged for a product token', async () => {
      const user = await orgUser();
      const tokens = await signInThroughIdp(
        org.url,
        { username: user.login, password: PASSWORD },
        TEST_ORG_CLIENT_ID,
        portal.baseUrl,
      );
      const exchanged = await json<{ access_token: string }>(
        await post(portal.baseUrl, apiPaths.auth.tokenExchange, { token: tokens.idToken }),
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
        (await post(portal.baseUrl, apiPaths.auth.passwordReset, { email: user.login })).status,
        200,
      );
      const [message] = await mailFor(portal.baseUrl, user.login);
      const token = tokenOf(message!, 'password-reset');
      const finished = await post(portal.baseUrl, apiPaths.auth.passwordResetFinish, {
        token,
        password: NEW_PASSWORD,
      });
      assert.equal(finished.status, 200, await finished.clone().text());
      assert.equal((await authn(org.url, user.login, NEW_PASSWORD)).status, 200);
      assert.equal((await authn(org.url, user.login, PASSWORD)).status, 401);
    });

    it("says so on the same screen when the org's policy refuses the password, and keeps the link", async () => {
      const user = await orgUser();
      await post(portal.baseUrl, apiPaths.auth.passwordReset, { email: user.login });
      const [message] = await mailFor(portal.baseUrl, user.login);
      const token = tokenOf(message!, 'password-reset');
      // The portal's rules allow it; the org's default policy refuses a part of the username (its domain).
      const withName = `Example-Pass-3!`;
      const refused = await json<{ error: string; message: string }>(
        await post(portal.baseUrl, apiPaths.auth.passwordResetFinish, { token, password: withName }),
      );
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error, API_ERROR_CODES.passwordRefused);
      assert.ok(refused.body.message.startsWith(PASSWORD_REFUSED_MESSAGE), refused.body.message);
      assert.match(refused.body.message, /username/);
      const again = await post(portal.baseUrl, apiPaths.auth.passwordResetFinish, {
        token,
        password: NEW_PASSWORD,
      });
      assert.equal(again.status, 200, 'the link works again after the refusal');
    });

    it('signs in by e-mailed link with a product session of its own (the org mints no session token)', async () => {
      const user = await orgUser();
      await post(portal.baseUrl, apiPaths.auth.sendMagicLinkEmail, { email: user.login });
      const [message] = await mailFor(portal.baseUrl, user.login);
      const signedIn = await json<{ access_token: string; sessionToken: string | null }>(
        await post(portal.baseUrl, apiPaths.auth.magicLinkLogin, {
          token: tokenOf(message!, 'magic-link-landing'),
        }),
      );
      assert.equal(signedIn.status, 200);
      assert.equal(signedIn.body.sessionToken, null);
      const validated = await post(portal.baseUrl, apiPaths.auth.validate, {
        access_token: signedIn.body.access_token,
      });
      assert.equal(validated.status, 200);
    });

    it('registers an invited borrower as a user of the org, signed in there at once', async () => {
      const email = uniqueEmail('invited');
      assert.equal(
        (await invite(portal.baseUrl, { email, firstName: 'Grace', lastName: 'Hopper' })).status,
        201,
      );
      const [message] = await mailFor(portal.baseUrl, email);
      const registered = await json<{ access_token: string; sessionToken: string | null }>(
        await post(portal.baseUrl, apiPaths.registration.register, {
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
        await post(portal.baseUrl, apiPaths.auth.tokenExchange, { token: first.idToken }),
      );
      const second = await sign();
      assert.equal(
        (await post(portal.baseUrl, apiPaths.auth.logout, { access_token: exchanged.body.access_token }))
          .status,
        200,
      );
      const replay = await json<{ error: string }>(
        await post(portal.baseUrl, apiPaths.auth.tokenExchange, { token: second.idToken }),
      );
      assert.equal(replay.status, 401);
      assert.equal(replay.body.error, API_ERROR_CODES.idpSessionEnded);
    });

    it('ends one org session when the borrower signs that device out, and keeps the others', async () => {
      const user = await orgUser();
      const signIn = async () => {
        const { idToken } = await signInThroughIdp(
          org.url,
          { username: user.login, password: PASSWORD },
          TEST_ORG_CLIENT_ID,
          portal.baseUrl,
        );
        const { body } = await json<{ access_token: string }>(
          await post(portal.baseUrl, apiPaths.auth.tokenExchange, { token: idToken }),
        );
        return { token: body.access_token, orgSid: String(decodeJwt(idToken).sid) };
      };
      const orgSession = async (sid: string) =>
        (
          await fetch(`${org.url}/api/v1/sessions/${sid}`, {
            headers: { authorization: `SSWS ${org.apiToken}`, accept: 'application/json' },
          })
        ).status;
      const laptop = await signIn();
      const phone = await signIn();
      assert.equal(await orgSession(phone.orgSid), 200);

      const ended = await fetch(
        `${portal.baseUrl}${accountApiPaths.endSession.href({ sessionId: claimsOf(phone.token).sid })}`,
        { method: 'POST', headers: { authorization: `Bearer ${laptop.token}` } },
      );
      assert.equal(ended.status, 200, await ended.clone().text());
      // Okta's DELETE /api/v1/sessions/{id}: that session is gone from the org, the other stays.
      assert.equal(await orgSession(phone.orgSid), 404);
      assert.equal(await orgSession(laptop.orgSid), 200);
    });

    it("changes the password through the org's change_password: the old one checked there, its policy applied", async () => {
      const user = await orgUser();
      const signIn = async () => {
        const { idToken } = await signInThroughIdp(
          org.url,
          { username: user.login, password: PASSWORD },
          TEST_ORG_CLIENT_ID,
          portal.baseUrl,
        );
        const { body } = await json<{ access_token: string }>(
          await post(portal.baseUrl, apiPaths.auth.tokenExchange, { token: idToken }),
        );
        return body.access_token;
      };
      const laptop = await signIn();
      const phone = await signIn();
      const change = (body: Record<string, unknown>) =>
        fetch(`${portal.baseUrl}${accountApiPaths.password}`, {
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
      const other = await fetch(`${portal.baseUrl}${apiPaths.auth.profile}`, {
        headers: { authorization: `Bearer ${phone}` },
      });
      assert.equal(other.status, 401, 'the other device is signed out');
      const [mail] = await mailFor(portal.baseUrl, user.login);
      assert.match(mail!.subject, /password was changed$/);
    });

    it('leaves the sign-in email to the lender: the account says so, and the change is refused clearly', async () => {
      const user = await orgUser();
      const { idToken } = await signInThroughIdp(
        org.url,
        { username: user.login, password: PASSWORD },
        TEST_ORG_CLIENT_ID,
        portal.baseUrl,
      );
      const { body } = await json<{ access_token: string }>(
        await post(portal.baseUrl, apiPaths.auth.tokenExchange, { token: idToken }),
      );
      const request = (method: string, path: string, payload?: unknown) =>
        fetch(`${portal.baseUrl}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${body.access_token}`,
            ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: payload === undefined ? undefined : JSON.stringify(payload),
        }).then((response) => json<{ error?: string; message?: string }>(response));

      const account = await request('GET', accountApiPaths.email);
      assert.deepEqual(account.body, { email: user.login, changeable: false });
      const target = uniqueEmail('moved');
      const refused = await request('POST', accountApiPaths.email, { newEmail: target });
      assert.equal(refused.status, 409);
      assert.equal(refused.body.error, ACCOUNT_ERROR_CODES.emailChangeWithLender);
      assert.equal(
        refused.body.message,
        `Your sign-in email address is changed with ${portal.config.lender.name}. Call us at ${portal.config.lender.supportPhone}.`,
      );
      const link = await request('POST', accountApiPaths.confirmEmail, { token: 'anything' });
      assert.equal(link.status, 409);
      assert.equal(
        (await authn(org.url, user.login, PASSWORD)).status,
        200,
        'the org still has the old name',
      );
      assert.deepEqual(await inbox(portal.baseUrl, target), [], 'no link was sent');
    });
  });
}
