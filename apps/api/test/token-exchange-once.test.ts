import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { API_ERROR_CODES, authEndpoints } from '@customer-core/contracts';
import { signInThroughIdp, startTestServer, type TestServer } from '../testing/index.js';
import { startHostedIdp } from './support/hosted-idp.js';
import { createUser, mailFor, tokenOf, LINK_LIMITS_LIFTED, clientAddresses } from './support/links.js';
import { aSecondAgo } from './support/clock.js';
import { json, post } from './support/session.js';
import { startTwoInstances, type TwoInstances } from './support/two-instances.js';

// An ID token signs in once, and only while the sign-in it came from lasts.

interface ApiErrorBody {
  error: string;
  message: string;
}

const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

/** The same JWT with its signature spelt differently: base64url's last character carries unused bits. */
function respelt(jwt: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const last = alphabet.indexOf(jwt.at(-1)!);
  return `${jwt.slice(0, -1)}${alphabet[last ^ 1]}`;
}

const exchange = async (baseUrl: string, token: string) =>
  json<ApiErrorBody & { access_token: string }>(
    await post(baseUrl, authEndpoints.tokenExchange.path, { token }),
  );

const expectSpent = (answer: { status: number; body: ApiErrorBody }, code: string, message: RegExp) => {
  assert.equal(answer.status, 401, JSON.stringify(answer.body));
  assert.equal(answer.body.error, code);
  assert.match(answer.body.message, message);
  assert.match(answer.body.message, /Sign in again\./);
};

const newClient = clientAddresses();

describe('token exchange: each ID token signs in once, while its sign-in lasts', () => {
  let server: TestServer;
  let url: string;
  let hosted: Awaited<ReturnType<typeof startHostedIdp>>;

  before(async () => {
    hosted = await startHostedIdp();
    server = await startTestServer('pglite', {
      ...hosted.env,
      TRUST_PROXY: 'true',
      ...LINK_LIMITS_LIFTED,
    });
    url = server.baseUrl;
  });
  after(async () => {
    await server?.close();
    await hosted?.close();
  });

  const idpSignIn = (user: { login: string; password: string }) =>
    signInThroughIdp(url, { username: user.login, password: user.password });

  it('the bundled provider issues short-lived ID tokens that name their IdP session', async () => {
    const user = await createUser(server);
    const { idToken } = await idpSignIn(user);
    const claims = claimsOf(idToken);
    assert.equal(typeof claims.sid, 'string');
    assert.equal((claims.exp as number) - (claims.iat as number), 300);
  });

  it('refuses a replay of an exchanged ID token, also when its signature is spelt differently', async () => {
    const user = await createUser(server);
    const { idToken } = await idpSignIn(user);
    assert.equal((await exchange(url, idToken)).status, 200);
    expectSpent(await exchange(url, idToken), API_ERROR_CODES.idTokenUsed, /has been used already/);
    expectSpent(await exchange(url, respelt(idToken)), API_ERROR_CODES.idTokenUsed, /used already/);
  });

  it('of concurrent exchanges of one ID token, exactly one signs in', async () => {
    const user = await createUser(server);
    const { idToken } = await idpSignIn(user);
    const answers = await Promise.all(Array.from({ length: 20 }, () => exchange(url, idToken)));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, ...Array<number>(19).fill(401)]);
  });

  it("a hosted provider's ID tokens are exchanged once too, by jti or without one", async () => {
    const withJti = await hosted.idToken({ jti: 'ID.once-1' });
    assert.equal((await exchange(url, withJti)).status, 200);
    expectSpent(await exchange(url, withJti), API_ERROR_CODES.idTokenUsed, /used already/);
    // Another token with another jti is another sign-in.
    assert.equal((await exchange(url, await hosted.idToken({ jti: 'ID.once-2' }))).status, 200);

    const withoutJti = await hosted.idToken({ nonce: 'n-1' });
    assert.equal((await exchange(url, withoutJti)).status, 200);
    expectSpent(await exchange(url, withoutJti), API_ERROR_CODES.idTokenUsed, /used already/);
    expectSpent(await exchange(url, respelt(withoutJti)), API_ERROR_CODES.idTokenUsed, /used already/);
  });

  it('refuses an ID token issued before the borrower’s cut-off (password change, sign-out everywhere)', async () => {
    const subject = '00u-cut-off';
    // Issued a minute ago; the cut-off (whole seconds, as iat) falls between it and the tokens of now.
    const iat = Math.floor(Date.now() / 1000) - 60;
    const before = await hosted.idToken({ sub: subject, jti: 'ID.cut-off-1', iat });
    const signedIn = await hosted.idToken({ sub: subject, jti: 'ID.cut-off-2' });
    assert.equal((await exchange(url, signedIn)).status, 200);
    await server.server.db
      .updateTable('borrower')
      .set({ tokens_not_before: new Date((iat + 30) * 1000) })
      .where('idp_subject', '=', subject)
      .execute();
    expectSpent(await exchange(url, before), API_ERROR_CODES.idTokenRevoked, /issued before/);
    // Refused, not spent: and one issued after the cut-off signs in.
    const after = await hosted.idToken({ sub: subject, jti: 'ID.cut-off-3' });
    assert.equal((await exchange(url, after)).status, 200);
  });

  it('refuses an ID token after the borrower signed out', async () => {
    const user = await createUser(server);
    const kept = await idpSignIn(user); // e.g. copied from the browser, never exchanged
    const signedIn = await exchange(url, (await idpSignIn(user)).idToken);
    assert.equal(signedIn.status, 200);
    const logout = await post(url, authEndpoints.logout.path, { access_token: signedIn.body.access_token });
    assert.equal(logout.status, 200);
    expectSpent(await exchange(url, kept.idToken), API_ERROR_CODES.idpSessionEnded, /session .* has ended/);
  });

  it('refuses an ID token whose IdP session has ended, and only that one', async () => {
    const user = await createUser(server);
    const ended = await idpSignIn(user);
    const live = await idpSignIn(user);
    // The session of `ended` ends at the identity provider (as its own sign-out does).
    await sql`delete from idp_oidc_model where model = 'Session' and uid = ${claimsOf(ended.idToken).sid}`.execute(
      server.server.db,
    );
    expectSpent(await exchange(url, ended.idToken), API_ERROR_CODES.idpSessionEnded, /has ended/);
    assert.equal((await exchange(url, live.idToken)).status, 200);

    // Ended everywhere (sign-out everywhere at the identity provider).
    const another = await idpSignIn(user);
    await server.server.identityProvider!.endSessions(user.id);
    expectSpent(await exchange(url, another.idToken), API_ERROR_CODES.idpSessionEnded, /has ended/);
  });

  it('refuses an ID token issued before a password reset by e-mailed link', async () => {
    const user = await createUser(server);
    // Signed in a second before the reset (the cut-off has whole seconds, as iat).
    const kept = await aSecondAgo(() => idpSignIn(user));
    const sent = await post(
      url,
      authEndpoints.passwordReset.path,
      { email: user.login },
      { 'x-forwarded-for': newClient() },
    );
    assert.equal(sent.status, 200);
    const [message] = await mailFor(url, user.login);
    const link = tokenOf(message!, 'password-reset');
    const reset = await post(url, authEndpoints.passwordResetFinish.path, {
      token: link,
      password: 'Brand-new-Passw0rd',
    });
    assert.equal(reset.status, 200);
    const refused = await exchange(url, kept.idToken);
    assert.equal(refused.status, 401, JSON.stringify(refused.body));
    assert.ok(
      [API_ERROR_CODES.idpSessionEnded, API_ERROR_CODES.idTokenRevoked].includes(
        refused.body.error as 'idp_session_ended',
      ),
    );
    // A sign-in with the new password works at once.
    const fresh = await idpSignIn({ login: user.login, password: 'Brand-new-Passw0rd' });
    assert.equal((await exchange(url, fresh.idToken)).status, 200);
  });
});

describe(
  'token exchange on two instances sharing PostgreSQL',
  { skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL' },
  () => {
    let a: TestServer;
    let bUrl: string;
    let instances: TwoInstances | undefined;

    before(async () => {
      instances = await startTwoInstances();
      ({ a, bUrl } = instances);
    });
    after(() => instances?.close());

    it('an ID token exchanged on A is refused on B', async () => {
      const user = await createUser(a);
      const { idToken } = await signInThroughIdp(a.baseUrl, {
        username: user.login,
        password: user.password,
      });
      assert.equal((await exchange(a.baseUrl, idToken)).status, 200);
      expectSpent(await exchange(bUrl, idToken), API_ERROR_CODES.idTokenUsed, /used already/);
    });
  },
);
