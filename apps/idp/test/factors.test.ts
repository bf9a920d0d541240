import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { sql } from 'kysely';
import {
  CookieJar,
  apiToken,
  authn,
  clientAddressHeader,
  exchangeCode,
  iframeAuthorize,
  oktaApi,
  openTestDb,
  pkce,
  startApp,
  type TestApp,
  type TestDb,
  totpCode,
  newUser,
  PASSWORD,
  postJson,
} from './support.js';

const API_TOKEN = apiToken();
type Body = Record<string, unknown>;
interface Link {
  href: string;
  hints: { allow: string[] };
}
interface FactorEntry {
  id?: string;
  factorType: string;
  provider: string;
  _links: Record<string, Link>;
}

const embedded = (body: Body) => body._embedded as { factors: FactorEntry[]; factor: Body };
const linksOf = (body: Body) => body._links as Record<string, Link & { name?: string }>;

describe('second factor in /api/v1/authn', () => {
  let testDb: TestDb;
  let required: TestApp;
  let optional: TestApp;
  let off: TestApp;

  before(async () => {
    testDb = await openTestDb('pglite');
    // Three instances on one database, one per policy: what a change of MFA_POLICY does.
    required = await startApp(testDb.db, { mfaPolicy: 'required', apiTokens: [API_TOKEN] });
    optional = await startApp(testDb.db, {});
    off = await startApp(testDb.db, { mfaPolicy: 'off' });
  });
  after(async () => {
    await required?.close();
    await optional?.close();
    await off?.close();
    await testDb?.close();
  });

  const createUser = () => newUser(required, 'borrower');

  /** Follows a link of an answer the way okta-auth-js does: a POST with JSON to its href. */
  async function follow(server: TestApp, link: Link, body: Body, headers: Record<string, string> = {}) {
    assert.deepEqual(link.hints.allow, ['POST'], 'okta-auth-js makes a function only of a one-method link');
    const href = new URL(link.href);
    assert.equal(href.origin, new URL(server.issuer).origin, 'links are absolute, at the issuer origin');
    return postJson(server.baseUrl, href.pathname, body, headers);
  }

  /** A borrower enrolled through MFA_POLICY=required: MFA_ENROLL, MFA_ENROLL_ACTIVATE, SUCCESS. */
  async function enrolledUser() {
    const user = await createUser();
    const first = await authn(required.baseUrl, { username: user.login, password: PASSWORD });
    const [totp] = embedded(first.body).factors;
    const activation = await follow(required, totp!._links.enroll!, {
      stateToken: first.body.stateToken,
      factorType: totp!.factorType,
      provider: totp!.provider,
    });
    const factor = embedded(activation.body).factor as {
      id: string;
      _embedded: { activation: { sharedSecret: string } };
    };
    const secret = factor._embedded.activation.sharedSecret;
    const activationCode = totpCode(secret);
    const done = await follow(required, linksOf(activation.body).next!, {
      stateToken: activation.body.stateToken,
      passCode: activationCode,
    });
    assert.equal(done.body.status, 'SUCCESS', JSON.stringify(done.body));
    return { ...user, secret, factorId: factor.id, activationCode };
  }

  test('MFA_POLICY=required: MFA_ENROLL, then MFA_ENROLL_ACTIVATE with the secret, then SUCCESS with amr and auth_time', async () => {
    const user = await createUser();
    const first = await authn(required.baseUrl, { username: user.login, password: PASSWORD });
    assert.equal(first.status, 200);
    assert.equal(first.body.status, 'MFA_ENROLL');
    assert.equal(first.body.sessionToken, undefined);
    assert.match(first.body.stateToken as string, /^00[\w-]{43}$/);
    const factors = embedded(first.body).factors;
    assert.deepEqual(
      factors.map((f) => [
        f.factorType,
        f.provider,
        (f as unknown as Body).enrollment,
        (f as unknown as Body).status,
      ]),
      [['token:software:totp', 'GOOGLE', 'REQUIRED', 'NOT_SETUP']],
    );
    assert.equal(linksOf(first.body).skip, undefined, 'a required enrolment cannot be skipped');
    assert.ok(linksOf(first.body).cancel);

    const activation = await follow(required, factors[0]!._links.enroll!, {
      stateToken: first.body.stateToken,
      factorType: 'token:software:totp',
      provider: 'GOOGLE',
    });
    assert.equal(activation.status, 200);
    assert.equal(activation.body.status, 'MFA_ENROLL_ACTIVATE');
    assert.notEqual(activation.body.stateToken, first.body.stateToken, 'each step names a new state token');
    const factor = embedded(activation.body).factor as {
      id: string;
      factorType: string;
      _embedded: { activation: Record<string, unknown> };
    };
    assert.equal(factor.factorType, 'token:software:totp');
    const { sharedSecret, ...rest } = factor._embedded.activation;
    assert.match(sharedSecret as string, /^[A-Z2-7]{32}$/);
    assert.deepEqual(rest, { timeStep: 30, encoding: 'base32', keyLength: 6, factorResult: 'WAITING' });
    const next = linksOf(activation.body).next!;
    assert.equal(next.name, 'activate');
    assert.equal(new URL(next.href).pathname, `/api/v1/authn/factors/${factor.id}/lifecycle/activate`);

    // The token of the step before no longer works.
    const stale = await follow(required, next, {
      stateToken: first.body.stateToken,
      passCode: totpCode(sharedSecret as string),
    });
    assert.equal(stale.status, 401);
    assert.equal(stale.body.errorCode, 'E0000011');

    const wrong = await follow(required, next, {
      stateToken: activation.body.stateToken,
      passCode: '000000' === totpCode(sharedSecret as string) ? '111111' : '000000',
    });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.errorCode, 'E0000068');

    const done = await follow(required, next, {
      stateToken: activation.body.stateToken, // a wrong code leaves the step's token usable
      passCode: totpCode(sharedSecret as string),
    });
    assert.equal(done.status, 200);
    assert.equal(done.body.status, 'SUCCESS');
    assert.match(done.body.sessionToken as string, /^[\w-]{43,}$/);

    const again = await follow(required, next, {
      stateToken: activation.body.stateToken,
      passCode: totpCode(sharedSecret as string, 1),
    });
    assert.equal(again.status, 401, 'a finished transaction is over');
    assert.equal(again.body.errorCode, 'E0000011');

    // The session token signs the browser in; the ID token says how and when.
    const jar = new CookieJar();
    const { verifier, challenge } = pkce();
    const { message } = await iframeAuthorize(required.baseUrl, jar, {
      sessionToken: done.body.sessionToken as string,
      challenge,
    });
    const tokens = await exchangeCode(required.baseUrl, message.data.code!, verifier);
    const claims = decodeJwt(tokens.body.id_token!);
    assert.deepEqual(claims.amr, ['pwd', 'otp', 'mfa']);
    assert.equal(typeof claims.auth_time, 'number');
    assert.ok(Math.abs((claims.auth_time as number) - Date.now() / 1000) < 60);
    // The Sessions API tells a relying party the same.
    const session = await oktaApi(required.baseUrl, 'GET', `/api/v1/sessions/${String(claims.sid)}`, {
      token: API_TOKEN,
    });
    assert.equal(session.status, 200);
    assert.deepEqual(session.body.amr, ['pwd', 'otp', 'mfa']);
    assert.equal(session.body.mfaActive, true);
    assert.equal(session.body.lastFactorVerification, session.body.createdAt);
  });

  test('a borrower with a factor: MFA_REQUIRED with a verify link, then SUCCESS; the code used at enrolment is refused', async () => {
    const user = await enrolledUser();
    const first = await authn(optional.baseUrl, { username: user.login, password: PASSWORD });
    assert.equal(first.status, 200);
    assert.equal(first.body.status, 'MFA_REQUIRED');
    assert.equal(first.body.sessionToken, undefined);
    const [factor] = embedded(first.body).factors;
    assert.equal(factor!.id, user.factorId);
    assert.equal(factor!.factorType, 'token:software:totp');
    assert.equal(
      new URL(factor!._links.verify!.href).pathname,
      `/api/v1/authn/factors/${user.factorId}/verify`,
    );

    // The code that activated the factor, presented again within its window: a replay. (The very
    // code, not the app's code now: a 30 s step may have turned since.)
    const replay = await follow(optional, factor!._links.verify!, {
      stateToken: first.body.stateToken,
      passCode: user.activationCode,
    });
    assert.equal(replay.status, 403);
    assert.equal(replay.body.errorCode, 'E0000068');

    const done = await follow(optional, factor!._links.verify!, {
      stateToken: first.body.stateToken,
      passCode: totpCode(user.secret, 1),
    });
    assert.equal(done.status, 200);
    assert.equal(done.body.status, 'SUCCESS');
    const reused = await follow(optional, factor!._links.verify!, {
      stateToken: first.body.stateToken,
      passCode: totpCode(user.secret, 1),
    });
    assert.equal(reused.status, 401);
    assert.equal(reused.body.errorCode, 'E0000011');
  });

  test('two verifications racing with one code: exactly one signs in', async () => {
    const user = await enrolledUser();
    const [a, b] = await Promise.all([
      authn(optional.baseUrl, { username: user.login, password: PASSWORD }),
      authn(optional.baseUrl, { username: user.login, password: PASSWORD }),
    ]);
    const code = totpCode(user.secret, 1);
    const answers = await Promise.all(
      [a, b].map((first) =>
        follow(optional, embedded(first.body).factors[0]!._links.verify!, {
          stateToken: first.body.stateToken,
          passCode: code,
        }),
      ),
    );
    assert.deepEqual(answers.map((x) => x.status).sort(), [200, 403]);
    // The loser got no session token either: one from enrolment, one from the winner.
    const { rows } = await sql<{
      issued: number;
    }>`select count(*)::int as issued from idp_session_token where user_id = ${user.id}`.execute(testDb.db);
    assert.equal(rows[0]?.issued, 2);
  });

  test("another borrower's factor id is not found, as an unknown one", async () => {
    const owner = await enrolledUser();
    const other = await enrolledUser();
    const first = await authn(optional.baseUrl, { username: other.login, password: PASSWORD });
    const verify = embedded(first.body).factors[0]!._links.verify!;
    for (const factorId of [owner.factorId, 'uf000000000000000000', '..%2F..']) {
      const link = { ...verify, href: verify.href.replace(other.factorId, factorId) };
      const answer = await follow(optional, link, {
        stateToken: first.body.stateToken,
        passCode: totpCode(owner.secret, 1),
      });
      assert.equal(answer.status, 404, factorId);
      assert.equal(answer.body.errorCode, 'E0000007');
    }
    // Enrolment's activate link takes only the factor being enrolled.
    const fresh = await createUser();
    const start = await authn(required.baseUrl, { username: fresh.login, password: PASSWORD });
    const activation = await follow(required, embedded(start.body).factors[0]!._links.enroll!, {
      stateToken: start.body.stateToken,
      factorType: 'token:software:totp',
      provider: 'GOOGLE',
    });
    const next = linksOf(activation.body).next!;
    const hijack = await follow(
      required,
      { ...next, href: next.href.replace(/factors\/[^/]+\//, `factors/${owner.factorId}/`) },
      { stateToken: activation.body.stateToken, passCode: totpCode(owner.secret, 1) },
    );
    assert.equal(hijack.status, 404);
  });

  test('an expired state token, a made-up one and a cancelled one answer E0000011', async () => {
    const user = await enrolledUser();
    const first = await authn(optional.baseUrl, { username: user.login, password: PASSWORD });
    const verify = embedded(first.body).factors[0]!._links.verify!;
    await sql`update idp_authn_transaction set expires_at = now() - interval '1 second' where user_id = ${user.id}`.execute(
      testDb.db,
    );
    const expired = await follow(optional, verify, {
      stateToken: first.body.stateToken,
      passCode: totpCode(user.secret, 1),
    });
    assert.equal(expired.status, 401);
    assert.equal(expired.body.errorCode, 'E0000011');

    const madeUp = await follow(optional, verify, {
      stateToken: '00madeup',
      passCode: totpCode(user.secret, 1),
    });
    assert.equal(madeUp.status, 401);

    const second = await authn(optional.baseUrl, { username: user.login, password: PASSWORD });
    const cancel = await follow(optional, linksOf(second.body).cancel!, {
      stateToken: second.body.stateToken,
    });
    assert.equal(cancel.status, 200);
    const afterCancel = await follow(optional, verify, {
      stateToken: second.body.stateToken,
      passCode: totpCode(user.secret, 1),
    });
    assert.equal(afterCancel.status, 401);
    assert.equal(afterCancel.body.errorCode, 'E0000011');
  });

  test('a step of another state is refused with E0000079; a factor not offered with E0000003', async () => {
    const user = await enrolledUser();
    const first = await authn(optional.baseUrl, { username: user.login, password: PASSWORD });
    const enrollAt = (server: TestApp) => ({
      href: `${new URL(server.issuer).origin}/api/v1/authn/factors`,
      hints: { allow: ['POST'] },
    });
    const answer = await follow(optional, enrollAt(optional), {
      stateToken: first.body.stateToken,
      factorType: 'token:software:totp',
      provider: 'GOOGLE',
    });
    assert.equal(answer.status, 403);
    assert.equal(answer.body.errorCode, 'E0000079');

    const fresh = await createUser();
    const start = await authn(required.baseUrl, { username: fresh.login, password: PASSWORD });
    const sms = await follow(required, enrollAt(required), {
      stateToken: start.body.stateToken,
      factorType: 'sms',
      provider: 'OKTA',
    });
    assert.equal(sms.status, 400);
    assert.equal(sms.body.errorCode, 'E0000003');
  });

  test('wrong codes count against the sign-in lockout: the network is locked out, even with the right code', async () => {
    const user = await enrolledUser();
    const network = { 'x-forwarded-for': '203.0.113.77' };
    const first = await authn(optional.baseUrl, { username: user.login, password: PASSWORD }, network);
    const verify = embedded(first.body).factors[0]!._links.verify!;
    const right = totpCode(user.secret, 1);
    const wrongCode = right === '123456' ? '654321' : '123456';
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const answer = await follow(
        optional,
        verify,
        { stateToken: first.body.stateToken, passCode: wrongCode },
        network,
      );
      assert.equal(answer.status, 403, `attempt ${attempt}`);
      assert.equal(answer.body.errorCode, 'E0000068');
    }
    const locked = await follow(
      optional,
      verify,
      { stateToken: first.body.stateToken, passCode: right },
      network,
    );
    assert.equal(locked.status, 403);
    assert.equal(locked.body.errorCode, 'E0000069');
    const ended = await follow(optional, verify, { stateToken: first.body.stateToken, passCode: right });
    assert.equal(ended.status, 401, 'a lockout ends the transaction');
    const password = await authn(optional.baseUrl, { username: user.login, password: PASSWORD }, network);
    assert.equal(password.status, 401);
    assert.equal(password.body.errorCode, 'E0000004');
  });

  test('MFA_POLICY=off: the password alone signs in, factor or not; optional does not ask one who has none', async () => {
    const user = await enrolledUser();
    const answer = await authn(off.baseUrl, { username: user.login, password: PASSWORD });
    assert.equal(answer.body.status, 'SUCCESS');
    const plain = await createUser();
    const noFactor = await authn(optional.baseUrl, { username: plain.login, password: PASSWORD });
    assert.equal(noFactor.body.status, 'SUCCESS');
  });

  test('a password the portal just set (registration) signs in as authn would under each policy', async () => {
    const stateOf = async (server: TestApp, stateToken: string) => {
      const response = await fetch(`${server.baseUrl}/api/v1/authn/introspect`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...clientAddressHeader() },
        body: JSON.stringify({ stateToken }),
      });
      return ((await response.json()) as Body).status;
    };
    const plain = await createUser();
    const enrol = await required.idp.passwordSignIn(plain.id);
    assert.equal(enrol.kind, 'factor', 'required: no session token before a factor');
    assert.equal(await stateOf(required, enrol.kind === 'factor' ? enrol.stateToken : ''), 'MFA_ENROLL');
    for (const server of [optional, off]) {
      const straight = await server.idp.passwordSignIn(plain.id);
      assert.equal(straight.kind, 'signed_in');
    }
    const withFactor = await enrolledUser();
    const verify = await optional.idp.passwordSignIn(withFactor.id);
    assert.equal(verify.kind, 'factor');
    assert.equal(await stateOf(optional, verify.kind === 'factor' ? verify.stateToken : ''), 'MFA_REQUIRED');
    await assert.rejects(required.idp.passwordSignIn('no-such-user'));
  });

  test('the factor routes answer CORS preflights for the portal only and refuse other origins', async () => {
    const user = await enrolledUser();
    const first = await authn(optional.baseUrl, { username: user.login, password: PASSWORD });
    const verify = embedded(first.body).factors[0]!._links.verify!;
    const path = new URL(verify.href).pathname;
    const preflight = await fetch(`${optional.baseUrl}${path}`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'http://localhost:3000');
    const foreign = await follow(
      optional,
      verify,
      { stateToken: first.body.stateToken, passCode: totpCode(user.secret, 1) },
      { origin: 'https://evil.example' },
    );
    assert.equal(foreign.status, 403);
    assert.equal(foreign.body.errorCode, 'E0000006');
  });
});
