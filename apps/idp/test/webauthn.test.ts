import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { sql } from 'kysely';
import { passkeySignInPaths } from '@customer-core/contracts';
import {
  CookieJar,
  PORTAL,
  authn,
  clientAddressHeader,
  exchangeCode,
  iframeAuthorize,
  openTestDb,
  pkce,
  startApp,
  type TestApp,
  type TestDb,
  totpCode,
  newUser,
  PASSWORD,
} from './support.js';
import { SoftwareAuthenticator } from './software-authenticator.js';

type Body = Record<string, unknown>;
interface Link {
  href: string;
  hints: { allow: string[] };
  name?: string;
}
interface FactorEntry {
  id: string;
  factorType: string;
  provider: string;
  profile: Record<string, string>;
  _links: Record<string, Link>;
}
interface ChallengeFactor {
  id: string;
  factorType: string;
  profile: { credentialId: string; authenticatorName: string };
  _embedded: { challenge: { challenge: string; userVerification: string } };
}

const links = (body: Body) => body._links as Record<string, Link>;
const factorsOf = (body: Body) => (body._embedded as { factors: FactorEntry[] }).factors;
const challengeFactor = (body: Body) => (body._embedded as { factor: ChallengeFactor }).factor;

describe('WebAuthn factors and passkey sign-in', () => {
  let testDb: TestDb;
  let server: TestApp;

  before(async () => {
    testDb = await openTestDb('pglite');
    server = await startApp(testDb.db, {});
  });
  after(async () => {
    await server?.close();
    await testDb?.close();
  });

  const createUser = () => newUser(server, 'passkey');

  /** A borrower with a passkey added from the account page (enrol, then the attestation). */
  async function userWithPasskey(name = 'Work laptop') {
    const user = await createUser();
    const authenticator = new SoftwareAuthenticator({ origin: PORTAL });
    const enrolment = await server.idp.webauthn!.enrol(user.id);
    assert.ok(enrolment);
    const outcome = await server.idp.webauthn!.activate(
      user.id,
      enrolment.factorId,
      name,
      authenticator.create(enrolment.options),
    );
    assert.equal(outcome, 'activated');
    return { ...user, authenticator, factorId: enrolment.factorId };
  }

  async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Body };
  }

  /** Follows an answer's link the way okta-auth-js does: a POST with JSON to its absolute href. */
  async function follow(link: Link, body: Body, headers = clientAddressHeader()) {
    assert.deepEqual(link.hints.allow, ['POST']);
    assert.equal(new URL(link.href).origin, new URL(server.issuer).origin);
    return post(new URL(link.href).pathname, body, headers);
  }

  /** Password, then the webauthn factor's first verify: MFA_CHALLENGE. */
  async function challenged(user: { login: string; factorId: string; authenticator: SoftwareAuthenticator }) {
    const first = await authn(server.baseUrl, { username: user.login, password: PASSWORD });
    assert.equal(first.body.status, 'MFA_REQUIRED');
    const factor = factorsOf(first.body).find((entry) => entry.id === user.factorId);
    assert.ok(factor, 'MFA_REQUIRED lists the webauthn factor');
    assert.equal(factor.factorType, 'webauthn');
    assert.equal(factor.provider, 'FIDO');
    assert.equal(factor.profile.credentialId, user.authenticator.id, 'its credential, as Okta shows it');
    const challenge = await follow(factor._links.verify!, { stateToken: first.body.stateToken });
    assert.equal(challenge.status, 200, JSON.stringify(challenge.body));
    return { first, factor, challenge };
  }

  test('enrolment: options for a discoverable credential with user verification, the portal as relying party', async () => {
    const user = await createUser();
    const enrolment = await server.idp.webauthn!.enrol(user.id);
    assert.ok(enrolment);
    const { options } = enrolment;
    assert.equal(options.rp.id, 'localhost');
    assert.equal(options.authenticatorSelection?.residentKey, 'required');
    assert.equal(options.authenticatorSelection?.userVerification, 'required');
    assert.equal(options.user.name, user.login);
    const pending = await server.idp.factors.list(user.id);
    assert.deepEqual(
      pending.map((factor) => [factor.factorType, factor.provider, factor.status]),
      [['webauthn', 'FIDO', 'PENDING_ACTIVATION']],
    );

    const authenticator = new SoftwareAuthenticator({ origin: PORTAL });
    // Made on another site: refused, and the challenge is spent.
    const elsewhere = authenticator.create(options, 'https://evil.example');
    assert.equal(
      await server.idp.webauthn!.activate(user.id, enrolment.factorId, 'Laptop', elsewhere),
      'refused',
    );
    const again = authenticator.create(options);
    assert.equal(
      await server.idp.webauthn!.activate(user.id, enrolment.factorId, 'Laptop', again),
      'not_found',
      'a challenge is taken once',
    );

    const fresh = await server.idp.webauthn!.enrol(user.id);
    const other = await createUser();
    assert.equal(
      await server.idp.webauthn!.activate(
        other.id,
        fresh!.factorId,
        'Laptop',
        authenticator.create(fresh!.options),
      ),
      'not_found',
      "another user's pending factor is not found",
    );
    const fresher = await server.idp.webauthn!.enrol(user.id);
    const wrongOrigin = authenticator.create(fresher!.options, 'http://localhost:3001');
    assert.equal(
      await server.idp.webauthn!.activate(user.id, fresher!.factorId, 'Laptop', wrongOrigin),
      'refused',
    );
    const last = await server.idp.webauthn!.enrol(user.id);
    assert.equal(
      await server.idp.webauthn!.activate(
        user.id,
        last!.factorId,
        'Laptop',
        authenticator.create(last!.options),
      ),
      'activated',
    );
    const [factor] = await server.idp.factors.list(user.id);
    assert.equal(factor?.status, 'ACTIVE');
    assert.equal(factor?.id, last!.factorId);
    assert.deepEqual([...(await server.idp.webauthn!.names(user.id))], [[last!.factorId, 'Laptop']]);
    // The same credential once more: refused, not a second factor.
    const twice = await server.idp.webauthn!.enrol(user.id);
    assert.deepEqual(
      twice!.options.excludeCredentials?.map((c) => c.id),
      [authenticator.id],
      'the browser is told not to register it twice',
    );
    assert.equal(
      await server.idp.webauthn!.activate(
        user.id,
        twice!.factorId,
        'Again',
        authenticator.create(twice!.options),
      ),
      'refused',
    );
  });

  test('one credential activated for two factors at once: exactly one gets it, the other is refused', async () => {
    for (let round = 0; round < 6; round += 1) {
      const authenticator = new SoftwareAuthenticator({ origin: PORTAL });
      const pending = await Promise.all(
        [await createUser(), await createUser()].map(async (user) => {
          const enrolment = await server.idp.webauthn!.enrol(user.id);
          return { user, enrolment: enrolment! };
        }),
      );
      const outcomes = await Promise.all(
        pending.map(({ user, enrolment }) =>
          server.idp.webauthn!.activate(
            user.id,
            enrolment.factorId,
            'Shared',
            authenticator.create(enrolment.options),
          ),
        ),
      );
      assert.deepEqual(outcomes.sort(), ['activated', 'refused']);
    }
  });

  test('sign-in: MFA_REQUIRED, verify answers MFA_CHALLENGE, the assertion ends it with SUCCESS; amr pwd hwk mfa', async () => {
    const user = await userWithPasskey();
    const { challenge } = await challenged(user);
    assert.equal(challenge.body.status, 'MFA_CHALLENGE');
    const factor = challengeFactor(challenge.body);
    assert.equal(factor.id, user.factorId);
    assert.equal(factor.profile.credentialId, user.authenticator.id);
    assert.equal(factor.profile.authenticatorName, 'Work laptop');
    assert.equal(factor._embedded.challenge.userVerification, 'required');
    const next = links(challenge.body).next!;
    assert.equal(next.name, 'verify');
    assert.ok(links(challenge.body).cancel);

    const assertion = user.authenticator.get(factor._embedded.challenge.challenge);
    const done = await follow(next, { stateToken: challenge.body.stateToken, ...assertion });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.status, 'SUCCESS');

    const jar = new CookieJar();
    const { verifier, challenge: pkceChallenge } = pkce();
    const { message } = await iframeAuthorize(server.baseUrl, jar, {
      sessionToken: done.body.sessionToken as string,
      challenge: pkceChallenge,
    });
    const tokens = await exchangeCode(server.baseUrl, message.data.code!, verifier);
    assert.deepEqual(decodeJwt(tokens.body.id_token!).amr, ['pwd', 'hwk', 'mfa']);
    const [listed] = await server.idp.factors.list(user.id);
    assert.ok(listed?.lastUsedAt, 'the use is recorded');

    // The same assertion again, in a new transaction: its challenge is spent.
    const second = await challenged(user);
    const replay = await follow(links(second.challenge.body).next!, {
      stateToken: second.challenge.body.stateToken,
      ...assertion,
    });
    assert.equal(replay.status, 403);
    assert.equal(replay.body.errorCode, 'E0000068');
  });

  test('a replayed or regressed counter, another origin, another credential and no user verification are refused', async () => {
    const user = await userWithPasskey();
    const { challenge } = await challenged(user);
    const stateToken = challenge.body.stateToken as string;
    const next = links(challenge.body).next!;
    // A fresh challenge each time (a failed one is spent), asked from MFA_CHALLENGE itself.
    let current = { stateToken, next };
    const step = async (sign: (challenge: string) => Body) => {
      const again = await follow(current.next, { stateToken: current.stateToken });
      assert.equal(again.status, 200, JSON.stringify(again.body));
      current = { stateToken: again.body.stateToken as string, next: links(again.body).next! };
      const c = challengeFactor(again.body)._embedded.challenge.challenge;
      return follow(current.next, { stateToken: current.stateToken, ...sign(c) });
    };

    // A good signature moves the counter to 1; then counters 1 (replayed) and 0 (regressed) are refused.
    const good = await step((c) => user.authenticator.get(c));
    assert.equal(good.status, 200);
    assert.equal(good.body.status, 'SUCCESS');

    const again = await challenged(user);
    current = {
      stateToken: again.challenge.body.stateToken as string,
      next: links(again.challenge.body).next!,
    };
    const replayed = await follow(current.next, {
      stateToken: current.stateToken,
      ...user.authenticator.get(challengeFactor(again.challenge.body)._embedded.challenge.challenge, {
        counter: user.authenticator.counter,
      }),
    });
    assert.equal(replayed.status, 403, 'the counter it signed with is the stored one');
    assert.equal((await step((c) => user.authenticator.get(c, { counter: 0 }))).status, 403, 'regressed');
    assert.equal(
      (await step((c) => user.authenticator.get(c, { origin: 'https://evil.example' }))).status,
      403,
      'another origin',
    );
    assert.equal(
      (await step((c) => user.authenticator.get(c, { userVerified: false }))).status,
      403,
      'no user verification',
    );
    const stranger = new SoftwareAuthenticator({ origin: PORTAL });
    assert.equal((await step((c) => stranger.get(c))).status, 403, 'another credential');
    assert.equal((await step((c) => user.authenticator.get(c))).status, 200, 'the right one still signs in');
  });

  test('after a passkey’s challenge the app’s code may finish instead, with the current state token', async () => {
    const user = await userWithPasskey();
    const enrolled = await server.idp.factors.enrolTotp(user.id);
    assert.equal(enrolled.kind, 'enrolled');
    const secret = enrolled.kind === 'enrolled' ? enrolled.factor.secret! : '';
    const code = (stepsAhead: number) => totpCode(secret, stepsAhead);
    const app = enrolled.kind === 'enrolled' ? enrolled.factor.id : '';
    assert.equal((await server.idp.factors.activate(user.id, app, code(0))).kind, 'activated');

    const { first, challenge } = await challenged(user);
    const totp = factorsOf(first.body).find((entry) => entry.factorType === 'token:software:totp');
    assert.ok(totp, 'both factors are offered');
    const stale = await follow(totp._links.verify!, {
      stateToken: first.body.stateToken,
      passCode: code(1),
    });
    assert.equal(stale.status, 401, 'the token before the challenge is void');
    const done = await follow(totp._links.verify!, {
      stateToken: challenge.body.stateToken,
      passCode: code(1),
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.status, 'SUCCESS');
  });

  test("another borrower's factor id is not found; an expired or used state token answers E0000011", async () => {
    const user = await userWithPasskey();
    const other = await userWithPasskey();
    const first = await authn(server.baseUrl, { username: user.login, password: PASSWORD });
    const verify = factorsOf(first.body)[0]!._links.verify!;
    const foreign = await follow(
      { ...verify, href: verify.href.replace(user.factorId, other.factorId) },
      { stateToken: first.body.stateToken },
    );
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.errorCode, 'E0000007');

    const challenge = await follow(verify, { stateToken: first.body.stateToken });
    assert.equal(challenge.body.status, 'MFA_CHALLENGE');
    const stale = await follow(verify, { stateToken: first.body.stateToken });
    assert.equal(stale.status, 401, 'the token before MFA_CHALLENGE is void');
    assert.equal(stale.body.errorCode, 'E0000011');

    await sql`update idp_authn_transaction set expires_at = now() - interval '1 second' where user_id = ${user.id}`.execute(
      testDb.db,
    );
    const expired = await follow(links(challenge.body).next!, {
      stateToken: challenge.body.stateToken,
      ...user.authenticator.get(challengeFactor(challenge.body)._embedded.challenge.challenge),
    });
    assert.equal(expired.status, 401);
    assert.equal(expired.body.errorCode, 'E0000011');

    const badBody = await follow(links(challenge.body).next!, {
      stateToken: challenge.body.stateToken,
      clientData: 'not base64url!',
    });
    assert.equal(badBody.status, 400);
  });

  test('passkey sign-in: options, then the assertion gives a session token; a challenge is taken once', async () => {
    const user = await userWithPasskey();
    const options = await post(passkeySignInPaths.options, {}, clientAddressHeader());
    assert.equal(options.status, 200);
    assert.equal(options.body.rpId, 'localhost');
    assert.equal(options.body.userVerification, 'required');
    assert.deepEqual(options.body.allowCredentials, [], 'any of the site’s passkeys');
    const assertion = user.authenticator.assertionJson(options.body.challenge as string);
    const done = await post(passkeySignInPaths.verify, assertion, { origin: PORTAL });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.status, 'SUCCESS');
    const { verifier, challenge } = pkce();
    const { message } = await iframeAuthorize(server.baseUrl, new CookieJar(), {
      sessionToken: done.body.sessionToken as string,
      challenge,
    });
    const tokens = await exchangeCode(server.baseUrl, message.data.code!, verifier);
    const claims = decodeJwt(tokens.body.id_token!);
    assert.equal(claims.sub, user.id);
    assert.deepEqual(claims.amr, ['hwk', 'user', 'mfa']);

    const reused = await post(
      passkeySignInPaths.verify,
      user.authenticator.assertionJson(options.body.challenge as string),
    );
    assert.equal(reused.status, 401, 'the challenge was used');
    assert.equal(reused.body.errorCode, 'E0000004');
  });

  test('passkey sign-in: an unknown passkey, another origin, a bad body and another site are refused clearly', async () => {
    const user = await userWithPasskey();
    const stranger = new SoftwareAuthenticator({ origin: PORTAL });
    const first = await post(passkeySignInPaths.options, {});
    const unknown = await post(
      passkeySignInPaths.verify,
      stranger.assertionJson(first.body.challenge as string),
    );
    assert.equal(unknown.status, 401);
    assert.deepEqual(unknown.body.errorCauses, [{ errorSummary: 'unknown_passkey' }]);

    const second = await post(passkeySignInPaths.options, {});
    const elsewhere = await post(
      passkeySignInPaths.verify,
      user.authenticator.assertionJson(second.body.challenge as string, { origin: 'https://evil.example' }),
    );
    assert.equal(elsewhere.status, 401);
    assert.deepEqual(elsewhere.body.errorCauses, []);

    const third = await post(passkeySignInPaths.options, {});
    const forged = user.authenticator.assertionJson(third.body.challenge as string);
    forged.response.userHandle = Buffer.from('someone-else').toString('base64url');
    assert.equal((await post(passkeySignInPaths.verify, forged)).status, 401, 'the user handle must agree');

    for (const body of [{}, { id: 'x' }, 'text', { ...forged, type: 'other' }]) {
      const answer = await post(passkeySignInPaths.verify, body);
      assert.equal(answer.status, 400, JSON.stringify(body));
    }
    const foreign = await post(passkeySignInPaths.options, {}, { origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
  });
});
