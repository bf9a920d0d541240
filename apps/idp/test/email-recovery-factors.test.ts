import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { FactorCodeMail } from '../src/index.js';
import {
  apiToken,
  authn,
  oktaApi,
  openTestDb,
  startApp,
  type TestApp,
  type TestDb,
  newUser,
  PASSWORD,
  postJson,
} from './support.js';

// The e-mail factor (Okta's `email`) and the bundled provider's recovery codes, through the
// Classic Authentication API as okta-auth-js drives it and through the Factors API.

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
const factorsOf = (body: Body) => (body._embedded as { factors: FactorEntry[] }).factors;
const linksOf = (body: Body) => body._links as Record<string, Link & Link[]>;
const other = (code: string) => (code === '000000' ? '000001' : '000000');

describe('e-mail and recovery-code factors', () => {
  const token = apiToken();
  const mails: FactorCodeMail[] = [];
  let testDb: TestDb;
  let server: TestApp;
  let required: TestApp;
  let mailless: TestApp;

  before(async () => {
    testDb = await openTestDb('pglite');
    const factorCodeMailer = async (mail: FactorCodeMail) => void mails.push(mail);
    server = await startApp(testDb.db, { apiTokens: [token], factorCodeMailer });
    required = await startApp(testDb.db, { mfaPolicy: 'required', factorCodeMailer });
    mailless = await startApp(testDb.db, { apiTokens: [token], mfaPolicy: 'required' });
  });
  after(async () => {
    await server?.close();
    await required?.close();
    await mailless?.close();
    await testDb?.close();
  });

  const api = (method: string, path: string, body?: unknown, at = server) =>
    oktaApi(at.baseUrl, method, path, { token, body });
  const lastCodeTo = (login: string) => {
    const mail = mails.findLast((m) => m.to === login);
    assert.ok(mail, `a code was mailed to ${login}`);
    return mail.code;
  };

  const createUser = () => newUser(server, 'dana.mail', { firstName: 'Dana', lastName: 'Okafor' });

  async function follow(link: Link, body: Body, headers: Record<string, string> = {}, at = server) {
    assert.deepEqual(link.hints.allow, ['POST']);
    const href = new URL(link.href);
    assert.equal(href.origin, new URL(at.issuer).origin, 'links are absolute, at the issuer origin');
    return postJson(at.baseUrl, href.pathname, body, headers);
  }

  /** A user with an active e-mail factor, enrolled through the Factors API. */
  async function emailUser() {
    const user = await createUser();
    const enrolled = await api('POST', `/api/v1/users/${user.id}/factors`, {
      factorType: 'email',
      provider: 'OKTA',
      profile: { email: user.login },
    });
    assert.equal(enrolled.status, 200, JSON.stringify(enrolled.body));
    assert.equal(enrolled.body.status, 'PENDING_ACTIVATION');
    assert.deepEqual(enrolled.body.profile, { email: user.login });
    const factorId = enrolled.body.id as string;
    const code = lastCodeTo(user.login);
    assert.match(code, /^\d{6}$/);
    assert.equal(mails.at(-1)!.purpose, 'enrol');
    const wrong = await api('POST', `/api/v1/users/${user.id}/factors/${factorId}/lifecycle/activate`, {
      passCode: other(code),
    });
    assert.equal(wrong.status, 403);
    const activated = await api('POST', `/api/v1/users/${user.id}/factors/${factorId}/lifecycle/activate`, {
      passCode: code,
    });
    assert.equal(activated.status, 200, JSON.stringify(activated.body));
    assert.equal(activated.body.status, 'ACTIVE');
    return { ...user, factorId };
  }

  async function challenge(user: { login: string }, headers: Record<string, string> = {}) {
    const first = await authn(server.baseUrl, { username: user.login, password: PASSWORD }, headers);
    assert.equal(first.body.status, 'MFA_REQUIRED');
    const email = factorsOf(first.body).find((f) => f.factorType === 'email')!;
    const sent = await follow(email._links.verify!, { stateToken: first.body.stateToken }, headers);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    return { first, email, sent };
  }

  test('Factors API: enrol e-mail (PENDING_ACTIVATION, code mailed), activate with it; the address must be the login', async () => {
    const user = await emailUser();
    const listed = (await api('GET', `/api/v1/users/${user.id}/factors`)).body as unknown as Body[];
    assert.deepEqual(
      listed.map((f) => [f.factorType, f.provider, f.status]),
      [['email', 'OKTA', 'ACTIVE']],
    );
    const again = await api('POST', `/api/v1/users/${user.id}/factors`, {
      factorType: 'email',
      provider: 'OKTA',
      profile: { email: user.login },
    });
    assert.equal(again.status, 400, 'one e-mail factor is enough');
    const stranger = await createUser();
    const elsewhere = await api('POST', `/api/v1/users/${stranger.id}/factors`, {
      factorType: 'email',
      provider: 'OKTA',
      profile: { email: 'someone.else@example.com' },
    });
    assert.equal(elsewhere.status, 400);
    for (const body of [
      { factorType: 'email', provider: 'OKTA' },
      { factorType: 'email', provider: 'GOOGLE' },
    ]) {
      assert.equal((await api('POST', `/api/v1/users/${stranger.id}/factors`, body)).status, 400);
    }
  });

  test('Factors API: resend mails a new code (the old one stops working), limited; another user’s factor is 404', async () => {
    const user = await createUser();
    const enrolled = await api('POST', `/api/v1/users/${user.id}/factors`, {
      factorType: 'email',
      provider: 'OKTA',
      profile: { email: user.login },
    });
    const factorId = enrolled.body.id as string;
    const firstCode = lastCodeTo(user.login);
    const resent = await api('POST', `/api/v1/users/${user.id}/factors/${factorId}/resend`, {});
    assert.equal(resent.status, 200, JSON.stringify(resent.body));
    const secondCode = lastCodeTo(user.login);
    const stranger = await createUser();
    assert.equal(
      (await api('POST', `/api/v1/users/${stranger.id}/factors/${factorId}/resend`, {})).status,
      404,
    );
    // Five codes in the window (the enrolment's and four resends), then 429.
    for (let send = 3; send <= 5; send += 1) {
      assert.equal(
        (await api('POST', `/api/v1/users/${user.id}/factors/${factorId}/resend`, {})).status,
        200,
      );
    }
    const limited = await api('POST', `/api/v1/users/${user.id}/factors/${factorId}/resend`, {});
    assert.equal(limited.status, 429);
    assert.equal(limited.body.errorCode, 'E0000047');
    const latest = lastCodeTo(user.login);
    if (firstCode !== latest) {
      const old = await api('POST', `/api/v1/users/${user.id}/factors/${factorId}/lifecycle/activate`, {
        passCode: firstCode,
      });
      assert.equal(old.status, 403, 'a replaced code does not work');
    }
    assert.notEqual(secondCode, undefined);
    const activated = await api('POST', `/api/v1/users/${user.id}/factors/${factorId}/lifecycle/activate`, {
      passCode: latest,
    });
    assert.equal(activated.status, 200);
  });

  test('sign-in: MFA_REQUIRED lists the e-mail factor (address masked); verify without a code mails one, MFA_CHALLENGE as Okta answers; the code signs in once', async () => {
    const user = await emailUser();
    const { first, email, sent } = await challenge(user);
    assert.deepEqual(
      [email.factorType, email.provider, email.profile.email],
      ['email', 'OKTA', `d...${user.login.split('@')[0]!.slice(-1)}@example.com`],
    );
    assert.equal(sent.body.status, 'MFA_CHALLENGE');
    const factor = (sent.body._embedded as { factor: Body }).factor;
    assert.equal(factor.id, email.id);
    assert.deepEqual(factor.profile, { email: email.profile.email });
    const links = linksOf(sent.body);
    assert.equal(links.next!.name, 'verify');
    assert.equal(links.resend![0]!.name, 'email');
    assert.ok(links.prev && links.cancel);
    assert.notEqual(sent.body.stateToken, first.body.stateToken);
    const mail = mails.at(-1)!;
    assert.deepEqual([mail.to, mail.purpose, mail.expiresInMinutes], [user.login, 'sign-in', 5]);

    const stale = await follow(links.next!, { stateToken: first.body.stateToken, passCode: mail.code });
    assert.equal(stale.status, 401, 'the state token before the challenge no longer works');
    assert.equal(stale.body.errorCode, 'E0000011');
    const wrong = await follow(links.next!, {
      stateToken: sent.body.stateToken,
      passCode: other(mail.code),
    });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.errorCode, 'E0000068');
    const done = await follow(links.next!, { stateToken: sent.body.stateToken, passCode: mail.code });
    assert.equal(done.body.status, 'SUCCESS', JSON.stringify(done.body));
    assert.equal(typeof done.body.sessionToken, 'string');

    // The same code in another sign-in: used already.
    const again = await authn(server.baseUrl, { username: user.login, password: PASSWORD });
    const reuse = await follow(factorsOf(again.body).find((f) => f.factorType === 'email')!._links.verify!, {
      stateToken: again.body.stateToken,
      passCode: mail.code,
    });
    assert.equal(reuse.status, 403);
    assert.equal(reuse.body.errorCode, 'E0000068');
  });

  test('sign-in: resend replaces the code; an expired code is refused; prev goes back to MFA_REQUIRED', async () => {
    const user = await emailUser();
    const { sent } = await challenge(user);
    const oldCode = lastCodeTo(user.login);
    const resent = await follow(linksOf(sent.body).resend![0]!, { stateToken: sent.body.stateToken });
    assert.equal(resent.status, 200);
    assert.equal(resent.body.status, 'MFA_CHALLENGE');
    const newCode = lastCodeTo(user.login);
    if (oldCode !== newCode) {
      const old = await follow(linksOf(resent.body).next!, {
        stateToken: resent.body.stateToken,
        passCode: oldCode,
      });
      assert.equal(old.status, 403, 'the code before a resend no longer works');
    }
    await sql`update idp_factor_code set expires_at = now() - interval '1 second' where factor_id = ${
      (sent.body._embedded as { factor: { id: string } }).factor.id
    }`.execute(testDb.db);
    const expired = await follow(linksOf(resent.body).next!, {
      stateToken: resent.body.stateToken,
      passCode: newCode,
    });
    assert.equal(expired.status, 403, 'a code past its 5 minutes is refused');
    const back = await follow(linksOf(resent.body).prev!, { stateToken: resent.body.stateToken });
    assert.equal(back.status, 200);
    assert.equal(back.body.status, 'MFA_REQUIRED');
    assert.deepEqual(
      factorsOf(back.body).map((f) => f.factorType),
      ['email'],
    );
    const prevAgain = await follow(linksOf(resent.body).prev!, { stateToken: back.body.stateToken });
    assert.equal(prevAgain.status, 403, 'prev only from MFA_CHALLENGE');
    assert.equal(prevAgain.body.errorCode, 'E0000079');
  });

  test('sign-in: an expired state token answers E0000011; another user’s e-mail factor is 404; wrong codes count towards the lockout', async () => {
    const user = await emailUser();
    const stranger = await emailUser();
    const first = await authn(server.baseUrl, { username: user.login, password: PASSWORD });
    const verify = factorsOf(first.body)[0]!._links.verify!;
    const theirs = await follow(
      { ...verify, href: verify.href.replace(user.factorId, stranger.factorId) },
      { stateToken: first.body.stateToken },
    );
    assert.equal(theirs.status, 404);
    assert.equal(theirs.body.errorCode, 'E0000007');
    const { sent } = await challenge(user);
    const resendTheirs = await follow(
      {
        ...linksOf(sent.body).resend![0]!,
        href: linksOf(sent.body).resend![0]!.href.replace(user.factorId, stranger.factorId),
      },
      { stateToken: sent.body.stateToken },
    );
    assert.equal(resendTheirs.status, 404);
    await sql`update idp_authn_transaction set expires_at = now() - interval '1 second' where user_id = ${user.id}`.execute(
      testDb.db,
    );
    const expired = await follow(linksOf(sent.body).next!, {
      stateToken: sent.body.stateToken,
      passCode: lastCodeTo(user.login),
    });
    assert.equal(expired.status, 401);
    assert.equal(expired.body.errorCode, 'E0000011');

    const network = { 'x-forwarded-for': '203.0.113.91' };
    const locking = await challenge(user, network);
    const code = lastCodeTo(user.login);
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const answer = await follow(
        linksOf(locking.sent.body).next!,
        { stateToken: locking.sent.body.stateToken, passCode: other(code) },
        network,
      );
      assert.equal(answer.body.errorCode, 'E0000068', `attempt ${attempt}`);
    }
    const locked = await follow(
      linksOf(locking.sent.body).next!,
      { stateToken: locking.sent.body.stateToken, passCode: code },
      network,
    );
    assert.equal(locked.body.errorCode, 'E0000069', 'the network is locked out, even with the right code');
  });

  test('MFA_POLICY=required offers e-mail in MFA_ENROLL: enrol, MFA_ENROLL_ACTIVATE with resend, the mailed code ends it', async () => {
    const user = await createUser();
    const first = await authn(required.baseUrl, { username: user.login, password: PASSWORD });
    assert.equal(first.body.status, 'MFA_ENROLL');
    const email = factorsOf(first.body).find((f) => f.factorType === 'email')!;
    assert.ok(email, 'e-mail is offered');
    const enrolled = await follow(
      email._links.enroll!,
      { stateToken: first.body.stateToken, factorType: 'email', provider: 'OKTA' },
      {},
      required,
    );
    assert.equal(enrolled.status, 200, JSON.stringify(enrolled.body));
    assert.equal(enrolled.body.status, 'MFA_ENROLL_ACTIVATE');
    const links = linksOf(enrolled.body);
    assert.equal(links.next!.name, 'activate');
    const resent = await follow(links.resend![0]!, { stateToken: enrolled.body.stateToken }, {}, required);
    assert.equal(resent.body.status, 'MFA_ENROLL_ACTIVATE');
    const done = await follow(
      linksOf(resent.body).next!,
      { stateToken: resent.body.stateToken, passCode: lastCodeTo(user.login) },
      {},
      required,
    );
    assert.equal(done.body.status, 'SUCCESS', JSON.stringify(done.body));
    const next = await authn(required.baseUrl, { username: user.login, password: PASSWORD });
    assert.equal(next.body.status, 'MFA_REQUIRED');
  });

  test('without a way to mail, e-mail is not offered: not in MFA_ENROLL, refused by the Factors API', async () => {
    const user = await createUser();
    const first = await authn(mailless.baseUrl, { username: user.login, password: PASSWORD });
    assert.deepEqual(
      factorsOf(first.body).map((f) => f.factorType),
      ['token:software:totp'],
    );
    const refused = await api(
      'POST',
      `/api/v1/users/${user.id}/factors`,
      { factorType: 'email', provider: 'OKTA', profile: { email: user.login } },
      mailless,
    );
    assert.equal(refused.status, 400);
  });

  test('recovery codes: listed beside a factor, each signs in once; a race of one code has one winner', async () => {
    const user = await emailUser();
    const none = await createUser();
    assert.equal(await server.idp.factors.recoveryCodes.generate(none.id), undefined, 'not without a factor');
    const codes = (await server.idp.factors.recoveryCodes.generate(user.id))!;
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    for (const code of codes) assert.match(code, /^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/);

    const first = await authn(server.baseUrl, { username: user.login, password: PASSWORD });
    const recovery = factorsOf(first.body).find((f) => f.factorType === 'recovery_code')!;
    assert.equal(recovery.provider, 'CUSTOMER_CORE');
    const wrong = await follow(recovery._links.verify!, {
      stateToken: first.body.stateToken,
      passCode: 'aaaa-aaaa-aaaa-aaaa',
    });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.errorCode, 'E0000068');
    // Typed in capitals and without dashes, it still works.
    const done = await follow(recovery._links.verify!, {
      stateToken: first.body.stateToken,
      passCode: codes[0]!.toUpperCase().replace(/-/g, ' '),
    });
    assert.equal(done.body.status, 'SUCCESS', JSON.stringify(done.body));
    assert.deepEqual((done.body._embedded as Body).recoveryCodes, { remaining: 9 }, 'how many are left');
    assert.equal(await server.idp.factors.recoveryCodes.remaining(user.id), 9);

    const again = await authn(server.baseUrl, { username: user.login, password: PASSWORD });
    const reuse = await follow(
      factorsOf(again.body).find((f) => f.factorType === 'recovery_code')!._links.verify!,
      { stateToken: again.body.stateToken, passCode: codes[0]! },
    );
    assert.equal(reuse.status, 403, 'a used code never signs in again');

    // Six sign-ins present one code at once: exactly one is let in.
    const started = await Promise.all(
      Array.from({ length: 6 }, () => authn(server.baseUrl, { username: user.login, password: PASSWORD })),
    );
    const raced = await Promise.all(
      started.map((answer) =>
        follow(factorsOf(answer.body).find((f) => f.factorType === 'recovery_code')!._links.verify!, {
          stateToken: answer.body.stateToken,
          passCode: codes[1]!,
        }),
      ),
    );
    assert.deepEqual(raced.map((r) => r.status).sort(), [200, 403, 403, 403, 403, 403]);
    assert.equal(await server.idp.factors.recoveryCodes.remaining(user.id), 8);

    // Another user's recovery factor id is not theirs.
    const stranger = await emailUser();
    await server.idp.factors.recoveryCodes.generate(stranger.id);
    const mine = await authn(server.baseUrl, { username: user.login, password: PASSWORD });
    const myVerify = factorsOf(mine.body).find((f) => f.factorType === 'recovery_code')!._links.verify!;
    const theirs = await follow(
      { ...myVerify, href: myVerify.href.replace(/rc[A-Za-z0-9]+/, `rc${stranger.id.replace(/-/g, '')}`) },
      { stateToken: mine.body.stateToken, passCode: codes[2]! },
    );
    assert.equal(theirs.status, 404);

    // A new set voids the old one.
    const fresh = (await server.idp.factors.recoveryCodes.generate(user.id))!;
    const stale = await authn(server.baseUrl, { username: user.login, password: PASSWORD });
    const staleTry = await follow(
      factorsOf(stale.body).find((f) => f.factorType === 'recovery_code')!._links.verify!,
      { stateToken: stale.body.stateToken, passCode: codes[3]! },
    );
    assert.equal(staleTry.status, 403);
    assert.equal(fresh.length, 10);
  });

  test('no code, mailed or recovery, is ever written to a log line', async () => {
    const user = await emailUser();
    const codes = (await server.idp.factors.recoveryCodes.generate(user.id))!;
    const first = await authn(server.baseUrl, { username: user.login, password: PASSWORD });
    const recovery = factorsOf(first.body).find((f) => f.factorType === 'recovery_code')!;
    await follow(recovery._links.verify!, { stateToken: first.body.stateToken, passCode: codes[0]! });
    const logs = [...server.logs, ...required.logs].join('\n');
    assert.ok(mails.length > 0);
    for (const code of [...mails.map((m) => m.code), ...codes, ...codes.map((c) => c.replace(/-/g, ''))])
      assert.ok(!logs.includes(`"${code}"`), `a code in the log: ${code}`);
  });

  test('recovery codes are no factor alone: removing the last factor removes them, and the password alone signs in', async () => {
    const user = await emailUser();
    await server.idp.factors.recoveryCodes.generate(user.id);
    assert.equal(await server.idp.factors.remove(user.id, user.factorId), true);
    assert.equal(await server.idp.factors.recoveryCodes.remaining(user.id), 0);
    const signIn = await authn(server.baseUrl, { username: user.login, password: PASSWORD });
    assert.equal(signIn.body.status, 'SUCCESS');
    assert.equal(await server.idp.hasSecondFactor(user.id), false);
  });
});
