import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import {
  CookieJar,
  apiToken,
  authn,
  iframeAuthorize,
  oktaApi,
  openTestDb,
  signIn,
  startApp,
  type TestApp,
  type TestDb,
  PASSWORD,
} from './support.js';

const REFUSAL =
  'password: Password requirements were not met. Password requirements: at least 8 characters, a lowercase letter, an uppercase letter, a number, no parts of your username.';
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let counter = 0;
/** A new user's body as the portal's adapter sends it. */
function newUser(overrides: { login?: string; password?: string } = {}) {
  counter += 1;
  const login = overrides.login ?? `user${counter}@example.com`;
  return {
    profile: {
      firstName: 'Mary',
      lastName: 'Jackson',
      email: login,
      login,
      locale: 'en_GB',
      timeZone: 'Europe/London',
    },
    credentials: { password: { value: overrides.password ?? PASSWORD } },
  };
}

function assertOktaError(
  answer: { status: number; body: Record<string, unknown> },
  status: number,
  code: string,
) {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.equal(answer.body.errorCode, code);
  assert.equal(answer.body.errorLink, code);
  assert.match(String(answer.body.errorId), /^oae/);
  assert.ok(Array.isArray(answer.body.errorCauses));
}

const causes = (body: Record<string, unknown>) =>
  (body.errorCauses as Array<{ errorSummary: string }>).map((cause) => cause.errorSummary);

describe('Users API', () => {
  const token = apiToken();
  const otherToken = apiToken();
  let testDb: TestDb;
  let server: TestApp;
  const api = (method: string, path: string, body?: unknown) =>
    oktaApi(server.baseUrl, method, path, { token, body });

  before(async () => {
    testDb = await openTestDb('pglite');
    server = await startApp(testDb.db, { apiTokens: [token, otherToken] });
  });
  after(async () => {
    await server?.close();
    await testDb?.close();
  });

  test('POST /api/v1/users?activate=true creates an active user in Okta’s shape', async () => {
    const body = newUser({ login: 'Katherine.Johnson@example.com' });
    const created = await api('POST', '/api/v1/users?activate=true', body);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.headers.get('cache-control'), 'no-store');
    const user = created.body;
    assert.deepEqual(Object.keys(user).sort(), [
      '_links',
      'activated',
      'created',
      'credentials',
      'id',
      'lastLogin',
      'lastUpdated',
      'passwordChanged',
      'profile',
      'status',
      'statusChanged',
      'type',
    ]);
    assert.equal(user.status, 'ACTIVE');
    for (const field of ['created', 'activated', 'statusChanged', 'lastUpdated', 'passwordChanged'])
      assert.match(String(user[field]), ISO_TIME, field);
    assert.equal(user.activated, user.created);
    assert.equal(user.lastLogin, null);
    assert.equal(typeof (user.type as { id: unknown }).id, 'string');
    assert.deepEqual(user.profile, {
      firstName: 'Mary',
      lastName: 'Jackson',
      mobilePhone: null,
      secondEmail: null,
      login: 'Katherine.Johnson@example.com',
      email: 'Katherine.Johnson@example.com',
      locale: 'en_GB',
      timeZone: 'Europe/London',
    });
    assert.deepEqual(user.credentials, {
      password: {},
      emails: [{ value: 'Katherine.Johnson@example.com', status: 'VERIFIED', type: 'PRIMARY' }],
      provider: { type: 'OKTA', name: 'OKTA' },
    });
    assert.deepEqual(user._links, {
      self: { href: `${new URL(server.issuer).origin}/api/v1/users/${String(user.id)}` },
    });
    // The user signs in with the password it was created with.
    const signedIn = await authn(server.baseUrl, {
      username: 'katherine.johnson@example.com',
      password: PASSWORD,
    });
    assert.equal(signedIn.status, 200);
  });

  test('locale and time zone are optional, as in Okta', async () => {
    const body = newUser();
    const { locale: _locale, timeZone: _timeZone, ...profile } = body.profile;
    const created = await api('POST', '/api/v1/users?activate=true', { ...body, profile });
    assert.equal(created.status, 200);
    const created_profile = created.body.profile as Record<string, unknown>;
    assert.equal(created_profile.locale, 'en_US');
    assert.equal(created_profile.timeZone, 'UTC');
  });

  test('GET /api/v1/users/{idOrLogin} finds a user by id, or by login whatever its case', async () => {
    const created = await api(
      'POST',
      '/api/v1/users?activate=true',
      newUser({ login: 'dorothy@example.com' }),
    );
    const byId = await api('GET', `/api/v1/users/${String(created.body.id)}`);
    assert.equal(byId.status, 200);
    assert.deepEqual(byId.body, created.body);
    const byLogin = await api('GET', `/api/v1/users/${encodeURIComponent('DOROTHY@Example.com')}`);
    assert.equal(byLogin.status, 200);
    assert.deepEqual(byLogin.body, created.body);
    const plain = await api('GET', '/api/v1/users/dorothy@example.com');
    assert.deepEqual(plain.body, created.body);
  });

  test('an unknown user is E0000007 on every route', async () => {
    const missing = await api('GET', `/api/v1/users/${encodeURIComponent('nobody@example.com')}`);
    assertOktaError(missing, 404, 'E0000007');
    assert.equal(missing.body.errorSummary, 'Not found: Resource not found: nobody@example.com (User)');
    assert.deepEqual(missing.body.errorCauses, []);
    const update = await api('POST', '/api/v1/users/00unknown', {
      credentials: { password: { value: PASSWORD } },
    });
    assertOktaError(update, 404, 'E0000007');
    assert.equal(update.body.errorSummary, 'Not found: Resource not found: 00unknown (User)');
    assertOktaError(await api('DELETE', '/api/v1/users/00unknown/sessions'), 404, 'E0000007');
  });

  test('a taken login, whatever its case, is refused as Okta refuses it', async () => {
    assert.equal(
      (await api('POST', '/api/v1/users?activate=true', newUser({ login: 'annie@example.com' }))).status,
      200,
    );
    const again = await api('POST', '/api/v1/users?activate=true', newUser({ login: 'ANNIE@example.com' }));
    assertOktaError(again, 400, 'E0000001');
    assert.equal(again.body.errorSummary, 'Api validation failed: login');
    assert.deepEqual(causes(again.body), [
      'login: An object with this field already exists in the current organization',
    ]);
  });

  test('the password policy: Okta’s default requirements, in its words', async () => {
    const login = 'grace.hopper@example.com';
    for (const password of [
      'Hopper-2024x', // a part of the username
      'xGRACE-2024', // another, whatever its case
      'Example-2024x', // the domain is a part too
      'Ab1-xyz', // 7 characters
      'correct-horse-1', // no uppercase letter
      'CORRECT-HORSE-1', // no lowercase letter
      'Correct-horse', // no number
    ]) {
      const refused = await api('POST', '/api/v1/users?activate=true', newUser({ login, password }));
      assertOktaError(refused, 400, 'E0000001');
      assert.equal(refused.body.errorSummary, 'Api validation failed: password', password);
      assert.deepEqual(causes(refused.body), [REFUSAL], password);
    }
    assert.equal((await api('GET', `/api/v1/users/${login}`)).status, 404);
    // Parts shorter than four characters and the top-level domain are not checked, as in Okta.
    const accepted = await api('POST', '/api/v1/users?activate=true', {
      ...newUser({ login: 'ed.li@example.com', password: 'Ed-li-com-2024' }),
    });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  });

  test('POST /api/v1/users/{id} sets the password as an administrator and lifts the lockout', async () => {
    const created = await api('POST', '/api/v1/users?activate=true', newUser({ login: 'hedy@example.com' }));
    const id = String(created.body.id);
    const address = { 'x-forwarded-for': '203.0.113.77' };
    for (let i = 0; i < 10; i += 1)
      await authn(server.baseUrl, { username: 'hedy@example.com', password: 'Wrong-password-1' }, address);
    const locked = await authn(server.baseUrl, { username: 'hedy@example.com', password: PASSWORD }, address);
    assert.equal(locked.status, 401);

    const refused = await api('POST', `/api/v1/users/${id}`, {
      credentials: { password: { value: 'Hedy-2024-x' } },
    });
    assertOktaError(refused, 400, 'E0000001');
    assert.deepEqual(causes(refused.body), [REFUSAL]);

    const updated = await api('POST', `/api/v1/users/${id}`, {
      credentials: { password: { value: 'New-password-3' } },
    });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.id, id);
    assert.equal(updated.body.created, created.body.created);
    assert.ok(String(updated.body.passwordChanged) >= String(created.body.passwordChanged));
    assert.equal(updated.body.lastUpdated, updated.body.passwordChanged);
    const old = await authn(server.baseUrl, { username: 'hedy@example.com', password: PASSWORD }, address);
    assert.equal(old.status, 401);
    const signedIn = await authn(
      server.baseUrl,
      { username: 'hedy@example.com', password: 'New-password-3' },
      address,
    );
    assert.equal(signedIn.status, 200);
  });

  test('POST /api/v1/users/{id} changes the profile’s locale, and the next ID token’s locale claim', async () => {
    const created = await api(
      'POST',
      '/api/v1/users?activate=true',
      newUser({ login: 'ada.es@example.com' }),
    );
    const id = String(created.body.id);

    const updated = await api('POST', `/api/v1/users/${id}`, { profile: { locale: 'es_US' } });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal((updated.body.profile as Record<string, unknown>).locale, 'es_US');
    assert.equal((updated.body.profile as Record<string, unknown>).firstName, 'Mary', 'the rest stays');
    assert.equal(updated.body.passwordChanged, created.body.passwordChanged, 'the password stays');
    const read = await api('GET', `/api/v1/users/ada.es@example.com`);
    assert.equal((read.body.profile as Record<string, unknown>).locale, 'es_US');
    const { tokens } = await signIn(server.baseUrl, new CookieJar(), {
      username: 'ada.es@example.com',
      password: PASSWORD,
    });
    assert.equal(decodeJwt(String(tokens.id_token)).locale, 'es-US', 'the claim is BCP 47');

    // Nothing else of the profile, and only a locale's shape; an unknown user is E0000007.
    for (const profile of [
      { firstName: 'Changed' },
      { locale: 'es_US', lastName: 'Changed' },
      {},
      { locale: 7 },
      { locale: 'not a locale!' },
    ]) {
      const refused = await api('POST', `/api/v1/users/${id}`, { profile });
      assertOktaError(refused, 400, 'E0000001');
    }
    assertOktaError(await api('POST', `/api/v1/users/${id}`, {}), 400, 'E0000001');
    assertOktaError(
      await api('POST', '/api/v1/users/00u-unknown', { profile: { locale: 'es_US' } }),
      404,
      'E0000007',
    );
    assert.equal(
      ((await api('GET', `/api/v1/users/${id}`)).body.profile as Record<string, unknown>).locale,
      'es_US',
    );
  });

  test('POST /api/v1/users/{id}/credentials/change_password: the old password, then the policy', async () => {
    const created = await api('POST', '/api/v1/users?activate=true', newUser({ login: 'grace@example.com' }));
    const path = `/api/v1/users/${String(created.body.id)}/credentials/change_password`;
    const change = (oldPassword: string, newPassword: string) =>
      api('POST', path, { oldPassword: { value: oldPassword }, newPassword: { value: newPassword } });

    const wrong = await change('Not-her-password-1', 'Another-password-2');
    assertOktaError(wrong, 403, 'E0000014');
    assert.equal(wrong.body.errorSummary, 'Update of credentials failed');
    assert.deepEqual(causes(wrong.body), ['oldPassword: The credentials provided were incorrect.']);

    const refused = await change(PASSWORD, 'Grace-2024-x');
    assertOktaError(refused, 400, 'E0000001');
    assert.deepEqual(causes(refused.body), [REFUSAL]);

    const missing = await api('POST', path, { oldPassword: { value: PASSWORD } });
    assertOktaError(missing, 400, 'E0000001');
    assert.deepEqual(causes(missing.body), ['newPassword: The field cannot be left blank']);
    assertOktaError(await api('POST', path, []), 400, 'E0000003');
    assertOktaError(
      await api('POST', '/api/v1/users/nobody@example.com/credentials/change_password', {
        oldPassword: { value: PASSWORD },
        newPassword: { value: 'Another-password-2' },
      }),
      404,
      'E0000007',
    );

    const changed = await change(PASSWORD, 'Another-password-2');
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual(changed.body, { password: {}, provider: { type: 'OKTA', name: 'OKTA' } });
    const login = (password: string) => authn(server.baseUrl, { username: 'grace@example.com', password });
    assert.equal((await login(PASSWORD)).status, 401);
    assert.equal((await login('Another-password-2')).status, 200);
  });

  test('wrong old passwords count against the lockout as wrong sign-ins do', async () => {
    const created = await api('POST', '/api/v1/users?activate=true', newUser({ login: 'ada@example.com' }));
    const path = `/api/v1/users/${String(created.body.id)}/credentials/change_password`;
    const change = (oldPassword: string) =>
      api('POST', path, {
        oldPassword: { value: oldPassword },
        newPassword: { value: 'Another-password-2' },
      });
    for (let i = 0; i < 10; i += 1) assertOktaError(await change(`Wrong-password-${i}`), 403, 'E0000014');
    // Locked for the caller's network: the right password is refused there too.
    assertOktaError(await change(PASSWORD), 403, 'E0000014');
    const elsewhere = await authn(server.baseUrl, { username: 'ada@example.com', password: PASSWORD });
    assert.equal(elsewhere.status, 200, 'another network still signs in with the unchanged password');
  });

  test('DELETE /api/v1/users/{id}/sessions ends the IdP sessions and unused session tokens', async () => {
    const created = await api('POST', '/api/v1/users?activate=true', newUser({ login: 'mae@example.com' }));
    const id = String(created.body.id);
    const jar = new CookieJar();
    const { tokens } = await signIn(server.baseUrl, jar, {
      username: 'mae@example.com',
      password: PASSWORD,
    });
    const sid = String(decodeJwt(tokens.id_token ?? '').sid);
    assert.equal(await server.idp.hasSession(sid, id), true);
    const pending = await server.idp.issueSessionToken(id);

    const ended = await api('DELETE', `/api/v1/users/${id}/sessions`);
    assert.equal(ended.status, 204);

    assert.equal(await server.idp.hasSession(sid, id), false);
    const { message } = await iframeAuthorize(server.baseUrl, jar);
    assert.equal(message.data.error, 'login_required');
    const unused = await iframeAuthorize(server.baseUrl, new CookieJar(), {
      sessionToken: pending.sessionToken,
    });
    assert.equal(unused.message.data.error, 'login_required');
  });

  test("GET /api/v1/sessions/{sid} answers an ID token's live session in Okta's shape, then 404", async () => {
    const created = await api('POST', '/api/v1/users?activate=true', newUser({ login: 'kay@example.com' }));
    const id = String(created.body.id);
    const { tokens } = await signIn(server.baseUrl, new CookieJar(), {
      username: 'kay@example.com',
      password: PASSWORD,
    });
    const sid = String(decodeJwt(tokens.id_token ?? '').sid);
    const live = await api('GET', `/api/v1/sessions/${sid}`);
    assert.equal(live.status, 200, JSON.stringify(live.body));
    assert.equal(live.body.id, sid);
    assert.equal(live.body.userId, id);
    assert.equal(live.body.login, 'kay@example.com');
    assert.equal(live.body.status, 'ACTIVE');
    assert.match(String(live.body.createdAt), ISO_TIME);
    assert.deepEqual(live.body.amr, ['pwd']);
    assertOktaError(await api('GET', '/api/v1/sessions/unknown-session'), 404, 'E0000007');
    assert.equal((await oktaApi(server.baseUrl, 'GET', `/api/v1/sessions/${sid}`)).status, 401);

    await api('DELETE', `/api/v1/users/${id}/sessions`);
    const ended = await api('GET', `/api/v1/sessions/${sid}`);
    assertOktaError(ended, 404, 'E0000007');
    assert.deepEqual(causes(ended.body), []);
  });

  test('DELETE /api/v1/sessions/{sid} ends that session only, then 404', async () => {
    const created = await api('POST', '/api/v1/users?activate=true', newUser({ login: 'ida@example.com' }));
    const id = String(created.body.id);
    const [laptop, phone] = [new CookieJar(), new CookieJar()];
    const sidOf = async (jar: CookieJar) => {
      const { tokens } = await signIn(server.baseUrl, jar, {
        username: 'ida@example.com',
        password: PASSWORD,
      });
      return String(decodeJwt(tokens.id_token ?? '').sid);
    };
    const [laptopSid, phoneSid] = [await sidOf(laptop), await sidOf(phone)];

    // Without the API token, nothing ends.
    assert.equal((await oktaApi(server.baseUrl, 'DELETE', `/api/v1/sessions/${phoneSid}`)).status, 401);
    assert.equal(await server.idp.hasSession(phoneSid, id), true);

    const ended = await api('DELETE', `/api/v1/sessions/${phoneSid}`);
    assert.equal(ended.status, 204);
    assert.equal(await server.idp.hasSession(phoneSid, id), false);
    assert.equal((await iframeAuthorize(server.baseUrl, phone)).message.data.error, 'login_required');
    // The other browser stays signed in.
    assert.equal(await server.idp.hasSession(laptopSid, id), true);
    assert.equal((await iframeAuthorize(server.baseUrl, laptop)).message.data.error, undefined);

    assertOktaError(await api('DELETE', `/api/v1/sessions/${phoneSid}`), 404, 'E0000007');
    assertOktaError(await api('DELETE', '/api/v1/sessions/unknown-session'), 404, 'E0000007');
  });

  test('a missing or wrong API token is E0000011', async () => {
    const path = '/api/v1/users/anyone@example.com';
    for (const authorization of [
      undefined,
      '',
      'SSWS',
      `SSWS ${token}x`,
      `SSWS ${token.slice(0, -1)}`,
      `Bearer ${token}`,
      `SSWS ${apiToken()}`,
    ]) {
      const refused = await oktaApi(server.baseUrl, 'GET', path, { authorization });
      assertOktaError(refused, 401, 'E0000011');
      assert.equal(refused.body.errorSummary, 'Invalid token provided');
    }
    const created = await oktaApi(server.baseUrl, 'POST', '/api/v1/users?activate=true', {
      authorization: 'SSWS not-a-token',
      body: newUser(),
    });
    assertOktaError(created, 401, 'E0000011');
    // Either configured token is accepted.
    assert.equal((await oktaApi(server.baseUrl, 'GET', path, { token: otherToken })).status, 404);
  });

  test('malformed bodies and control characters are refused with 4xx in Okta’s shape', async () => {
    const raw = (method: string, path: string, body: string) =>
      oktaApi(server.baseUrl, method, path, { token, body });
    const badJson = await raw('POST', '/api/v1/users?activate=true', '{"profile": ');
    assertOktaError(badJson, 400, 'E0000003');
    assert.equal(badJson.body.errorSummary, 'The request body was not well-formed.');
    assertOktaError(await raw('POST', '/api/v1/users?activate=true', '[1, 2]'), 400, 'E0000003');
    assertOktaError(await raw('POST', '/api/v1/users/whoever', 'null'), 400, 'E0000003');

    const blank = await api('POST', '/api/v1/users?activate=true', {
      profile: { login: 'not-an-address', email: 'nor this', lastName: '  ' },
      credentials: { password: { value: PASSWORD } },
    });
    assertOktaError(blank, 400, 'E0000001');
    assert.equal(blank.body.errorSummary, 'Api validation failed: firstName');
    assert.deepEqual(causes(blank.body).sort(), [
      'email: Does not match required pattern',
      'firstName: The field cannot be left blank',
      'lastName: The field cannot be left blank',
      'login: Username must be in the form of an email address',
    ]);

    const noPassword = await api('POST', '/api/v1/users?activate=true', { profile: newUser().profile });
    assertOktaError(noPassword, 400, 'E0000001');
    assert.equal(noPassword.body.errorSummary, 'Api validation failed: password');

    const unknownProperty = newUser();
    const extra = await api('POST', '/api/v1/users?activate=true', {
      ...unknownProperty,
      profile: { ...unknownProperty.profile, department: 'Lending' },
    });
    assertOktaError(extra, 400, 'E0000001');
    assert.equal(extra.body.errorSummary, 'Api validation failed: department');

    const notLogin = newUser();
    const otherEmail = await api('POST', '/api/v1/users?activate=true', {
      ...notLogin,
      profile: { ...notLogin.profile, email: 'someone.else@example.com' },
    });
    assertOktaError(otherEmail, 400, 'E0000001');
    assert.equal(otherEmail.body.errorSummary, 'Api validation failed: email');

    assertOktaError(await api('POST', '/api/v1/users?activate=false', newUser()), 400, 'E0000001');

    const created = await api('POST', '/api/v1/users?activate=true', newUser());
    const profileChange = await api('POST', `/api/v1/users/${String(created.body.id)}`, {
      profile: { firstName: 'Changed' },
      credentials: { password: { value: 'New-password-3' } },
    });
    assertOktaError(profileChange, 400, 'E0000001');
    assert.equal(profileChange.body.errorSummary, 'Api validation failed: profile');

    const controlled = newUser();
    for (const answer of [
      await api('POST', '/api/v1/users?activate=true', {
        ...controlled,
        profile: { ...controlled.profile, firstName: 'Ma\u0000ry' },
      }),
      await api('POST', '/api/v1/users?activate=true', {
        ...controlled,
        profile: { ...controlled.profile, lastName: 'Jack\u001bson' },
      }),
      await api('POST', '/api/v1/users?activate=true', {
        ...controlled,
        credentials: { password: { value: 'Correct-\nhorse-1' } },
      }),
      await api('GET', '/api/v1/users/mary%00@example.com'),
      await api('GET', '/api/v1/users/mary@example.com?x=%07'),
    ]) {
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.match(String(answer.body.errorCode), /^E000000[13]$/);
    }
    assert.equal((await api('GET', `/api/v1/users/${controlled.profile.login}`)).status, 404);

    const huge = await api('POST', '/api/v1/users?activate=true', {
      ...newUser(),
      padding: 'x'.repeat(64 * 1024),
    });
    assert.equal(huge.status, 413);
    assert.equal(huge.body.errorCode, 'E0000003');
  });

  test('no API token, password or e-mail address reaches the logs', () => {
    const all = server.logs.join('\n');
    assert.ok(all.includes('users api: user created'), 'the log is captured');
    for (const secret of [token, otherToken, PASSWORD, 'New-password-3'])
      assert.ok(!all.includes(secret), `logged: ${secret.slice(0, 4)}…`);
    assert.ok(!all.toLowerCase().includes('dorothy@example.com'), 'a login in a logged path');
  });
});

describe('Users API rate limit and closed API', () => {
  let testDb: TestDb;
  const servers: TestApp[] = [];

  before(async () => {
    testDb = await openTestDb('pglite');
  });
  after(async () => {
    for (const server of servers) await server.close();
    await testDb?.close();
  });

  test('calls past the limit per token are E0000047 with Okta’s headers, on every instance', async () => {
    const token = apiToken();
    const otherToken = apiToken();
    const options = { apiTokens: [token, otherToken], usersApiRateLimit: { max: 3, windowSeconds: 60 } };
    const first = await startApp(testDb.db, options);
    const second = await startApp(testDb.db, options);
    servers.push(first, second);
    const startedAt = Math.floor(Date.now() / 1000);
    const call = (server: TestApp, as = token) =>
      oktaApi(server.baseUrl, 'GET', '/api/v1/users/nobody@example.com', { token: as });

    const answers = [await call(first), await call(second), await call(first)];
    assert.deepEqual(
      answers.map((a) => [
        a.status,
        a.headers.get('x-rate-limit-limit'),
        a.headers.get('x-rate-limit-remaining'),
      ]),
      [
        [404, '3', '2'],
        [404, '3', '1'],
        [404, '3', '0'],
      ],
    );
    const limited = await call(second);
    assertOktaError(limited, 429, 'E0000047');
    assert.equal(limited.body.errorSummary, 'API call exceeded rate limit due to too many requests.');
    assert.equal(limited.headers.get('x-rate-limit-limit'), '3');
    assert.equal(limited.headers.get('x-rate-limit-remaining'), '0');
    const answeredBy = Math.ceil(Date.now() / 1000);
    const reset = Number(limited.headers.get('x-rate-limit-reset'));
    assert.ok(Number.isInteger(reset), 'epoch seconds');
    // The window began with the first call, somewhere between the two readings of the clock (however
    // slow the machine): it ends a window later (to the second, as the header gives it).
    assert.ok(reset >= startedAt + 59 && reset <= answeredBy + 60, `${reset} is when the window ends`);
    assert.equal(limited.headers.get('retry-after'), null);

    // Another token has its own count.
    const other = await call(first, otherToken);
    assert.equal(other.status, 404);
    assert.equal(other.headers.get('x-rate-limit-remaining'), '2');
  });

  test('with no API token configured, every call is E0000011', async () => {
    const closed = await startApp(testDb.db);
    servers.push(closed);
    for (const token of [apiToken(), '']) {
      const refused = await oktaApi(closed.baseUrl, 'GET', '/api/v1/users/nobody@example.com', {
        authorization: `SSWS ${token}`,
      });
      assertOktaError(refused, 401, 'E0000011');
    }
    const create = await oktaApi(closed.baseUrl, 'POST', '/api/v1/users?activate=true', {
      authorization: 'SSWS ',
      body: newUser(),
    });
    assertOktaError(create, 401, 'E0000011');
  });
});
