import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  apiToken,
  authn,
  oktaApi,
  openTestDb,
  startApp,
  type TestApp,
  type TestDb,
  totpCode,
  wrongTotpCodes,
  newUser,
  PASSWORD,
  postJson,
} from './support.js';

// Okta's Factors API (/api/v1/users/{id}/factors) as the portal's Okta adapter calls it.

const TOTP_ENROL = { factorType: 'token:software:totp', provider: 'GOOGLE' };
type Body = Record<string, unknown>;

describe('Factors API', () => {
  const token = apiToken();
  let testDb: TestDb;
  let server: TestApp;
  const api = (method: string, path: string, body?: unknown) =>
    oktaApi(server.baseUrl, method, path, { token, body });

  before(async () => {
    testDb = await openTestDb('pglite');
    server = await startApp(testDb.db, { apiTokens: [token] });
  });
  after(async () => {
    await server?.close();
    await testDb?.close();
  });

  const createUser = () => newUser(server, 'factor-owner', { firstName: 'Rosa', lastName: 'Diaz' });
  async function enrol(userId: string) {
    const answer = await api('POST', `/api/v1/users/${userId}/factors`, TOTP_ENROL);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const activation = (answer.body._embedded as { activation: { sharedSecret: string } }).activation;
    return { id: String(answer.body.id), secret: activation.sharedSecret, body: answer.body };
  }
  async function activeFactor(userId: string) {
    const factor = await enrol(userId);
    const answer = await api('POST', `/api/v1/users/${userId}/factors/${factor.id}/lifecycle/activate`, {
      passCode: totpCode(factor.secret),
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return factor;
  }

  test('enrols TOTP pending activation with Okta’s activation object, then the first code activates it', async () => {
    const user = await createUser();
    const origin = new URL(server.issuer).origin;
    const factor = await enrol(user.id);
    const body = factor.body;
    assert.equal(body.factorType, 'token:software:totp');
    assert.equal(body.provider, 'GOOGLE');
    assert.equal(body.status, 'PENDING_ACTIVATION');
    assert.deepEqual(body.profile, { credentialId: user.login });
    const activation = (body._embedded as { activation: Body }).activation;
    assert.equal(activation.timeStep, 30);
    assert.equal(activation.encoding, 'base32');
    assert.match(factor.secret, /^[A-Z2-7]{32}$/);
    const links = body._links as Record<string, { href: string; hints: { allow: string[] } }>;
    assert.equal(
      links.activate?.href,
      `${origin}/api/v1/users/${user.id}/factors/${factor.id}/lifecycle/activate`,
    );
    assert.deepEqual(links.activate?.hints.allow, ['POST']);

    const listed = await api('GET', `/api/v1/users/${user.id}/factors`);
    assert.equal(listed.status, 200);
    const [pending] = listed.body as unknown as Body[];
    assert.equal(pending?.status, 'PENDING_ACTIVATION');
    assert.equal(pending?._embedded, undefined, 'the secret is shown only when enrolling');

    const activated = await api('POST', `/api/v1/users/${user.id}/factors/${factor.id}/lifecycle/activate`, {
      passCode: totpCode(factor.secret),
    });
    assert.equal(activated.status, 200, JSON.stringify(activated.body));
    assert.equal(activated.body.status, 'ACTIVE');
    assert.equal(activated.body.lastVerified, undefined, 'activation is not a sign-in');

    // Sign-in now asks for it.
    const signIn = await authn(server.baseUrl, { username: user.login, password: PASSWORD });
    assert.equal(signIn.body.status, 'MFA_REQUIRED');
  });

  test('refuses a wrong code and a code already used, and a second enrolment while one is active', async () => {
    const user = await createUser();
    const factor = await enrol(user.id);
    const activate = (passCode: string) =>
      api('POST', `/api/v1/users/${user.id}/factors/${factor.id}/lifecycle/activate`, { passCode });

    const wrong = await activate(wrongTotpCodes(factor.secret, 1)[0]!);
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.errorCode, 'E0000068');

    // Two presentations of one code at once: exactly one activates.
    const code = totpCode(factor.secret);
    const answers = await Promise.all([activate(code), activate(code)]);
    assert.equal(answers.filter((a) => a.status === 200).length, 1);
    // The other was refused: as a used code (403) or as already active (400), by when it was read.
    assert.ok(answers.some((a) => a.status === 403 || a.status === 400));

    // The code that activated it does not sign in (a replay within its window).
    const signIn = await authn(server.baseUrl, { username: user.login, password: PASSWORD });
    assert.equal(signIn.body.status, 'MFA_REQUIRED');
    const stateToken = String(signIn.body.stateToken);
    const replay = await postJson(server.baseUrl, `/api/v1/authn/factors/${factor.id}/verify`, {
      stateToken,
      passCode: code,
    });
    assert.equal(replay.status, 403);
    assert.equal(replay.body.errorCode, 'E0000068');

    const again = await api('POST', `/api/v1/users/${user.id}/factors`, TOTP_ENROL);
    assert.equal(again.status, 400);
    assert.equal(again.body.errorCode, 'E0000001');
  });

  test('records when a factor last verified a sign-in', async () => {
    const user = await createUser();
    const factor = await activeFactor(user.id);
    const signIn = await authn(server.baseUrl, { username: user.login, password: PASSWORD });
    const verified = await postJson(server.baseUrl, `/api/v1/authn/factors/${factor.id}/verify`, {
      stateToken: signIn.body.stateToken,
      passCode: totpCode(factor.secret, 1),
    });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    const [listed] = (await api('GET', `/api/v1/users/${user.id}/factors`)).body as unknown as Body[];
    assert.equal(listed?.status, 'ACTIVE');
    assert.match(String(listed?.lastVerified), /^\d{4}-\d\d-\d\dT/);
  });

  test('another user’s factor id answers 404 in Okta’s shape, and is left as it was', async () => {
    const owner = await createUser();
    const other = await createUser();
    const factor = await enrol(owner.id);
    const path = `/api/v1/users/${other.id}/factors/${factor.id}`;

    for (const answer of [
      await api('POST', `${path}/lifecycle/activate`, { passCode: totpCode(factor.secret) }),
      await api('DELETE', path),
    ]) {
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.errorCode, 'E0000007');
      assert.equal(answer.body.errorSummary, `Not found: Resource not found: ${factor.id} (UserFactor)`);
    }
    assert.deepEqual((await api('GET', `/api/v1/users/${other.id}/factors`)).body, []);
    const ownerList = (await api('GET', `/api/v1/users/${owner.id}/factors`)).body as unknown as Body[];
    assert.deepEqual(
      ownerList.map((f) => f.id),
      [factor.id],
    );
    assert.equal((await api('GET', `/api/v1/users/00unknown/factors`)).status, 404);
    assert.equal((await api('DELETE', `/api/v1/users/${owner.id}/factors/not-an-id!`)).status, 404);
  });

  test('deletes a factor: 204, then sign-in asks only for the password', async () => {
    const user = await createUser();
    const factor = await activeFactor(user.id);
    const deleted = await api('DELETE', `/api/v1/users/${user.id}/factors/${factor.id}`);
    assert.equal(deleted.status, 204);
    assert.equal((await api('DELETE', `/api/v1/users/${user.id}/factors/${factor.id}`)).status, 404);
    const signIn = await authn(server.baseUrl, { username: user.login, password: PASSWORD });
    assert.equal(signIn.body.status, 'SUCCESS');
  });

  test('is behind the API token, and refuses bad bodies with 400', async () => {
    const user = await createUser();
    const anonymous = await oktaApi(server.baseUrl, 'GET', `/api/v1/users/${user.id}/factors`);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.errorCode, 'E0000011');
    const forged = await oktaApi(server.baseUrl, 'POST', `/api/v1/users/${user.id}/factors`, {
      token: apiToken(),
      body: TOTP_ENROL,
    });
    assert.equal(forged.status, 401);

    for (const body of [
      {},
      [],
      'text',
      { factorType: 'sms', provider: 'OKTA' },
      { ...TOTP_ENROL, provider: 1 },
    ]) {
      const answer = await api('POST', `/api/v1/users/${user.id}/factors`, body);
      assert.equal(answer.status, 400, JSON.stringify(body));
    }
    const factor = await enrol(user.id);
    for (const body of [{}, { passCode: 123456 }, { passCode: '' }, { passCode: 'x'.repeat(1000) }]) {
      const answer = await api(
        'POST',
        `/api/v1/users/${user.id}/factors/${factor.id}/lifecycle/activate`,
        body,
      );
      assert.equal(answer.status, 400, JSON.stringify(body));
    }
    assert.deepEqual(
      ((await api('GET', `/api/v1/users/${user.id}/factors`)).body as unknown as Body[]).map((f) => f.status),
      ['PENDING_ACTIVATION'],
    );
  });
});
