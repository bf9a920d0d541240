import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ACCOUNT_ERROR_CODES,
  authEndpoints,
  recoveryCodeEndpoints,
  SECOND_FACTOR_ERROR_CODES,
  secondFactorEndpoints,
} from '@customer-core/contracts';
import { signInThroughIdp, startTestServer, type TestServer } from '../testing/index.js';
import { authn, createUser, mailFor } from './support/links.js';
import { call } from './support/loans.js';
import { json, post } from './support/session.js';

// Email codes and recovery codes from the account page (/api/account/factors/email,
// /api/account/recovery-codes), with the bundled identity provider.

const PASSWORD = 'Original-Pass-1';
const codeIn = (subject: string) => /^(\d{6}) is your /.exec(subject)?.[1];

describe('email codes and recovery codes on the account page', () => {
  let server: TestServer;
  let off: TestServer;

  before(async () => {
    server = await startTestServer('pglite', { TRUST_PROXY: 'true', MFA_POLICY: 'optional' });
    off = await startTestServer('pglite', { MFA_POLICY: 'off' });
  });
  after(async () => {
    await server?.close();
    await off?.close();
  });

  async function signedIn(at = server) {
    const user = await createUser(at, PASSWORD);
    const { idToken } = await signInThroughIdp(at.baseUrl, { username: user.login, password: PASSWORD });
    const { status, body } = await json<{ access_token: string }>(
      await post(at.baseUrl, authEndpoints.tokenExchange.path, { token: idToken }),
    );
    assert.equal(status, 200);
    return { ...user, token: body.access_token };
  }
  const api = (token: string, method: 'GET' | 'POST', path: string, body?: unknown, at = server) =>
    call(at.baseUrl, method, path, token, body);
  /** The newest code mailed to the borrower, once `count` messages have arrived. */
  async function newestCode(login: string, count: number) {
    const messages = await mailFor(server.baseUrl, login, count);
    const code = messages.map((m) => codeIn(m.subject)).find(Boolean);
    assert.ok(code, messages.map((m) => m.subject).join('; '));
    return code;
  }

  /** A borrower with email codes turned on. */
  async function withEmailCodes() {
    const borrower = await signedIn();
    const started = await api(borrower.token, 'POST', secondFactorEndpoints.enrolEmail.path);
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.equal(started.body.sentTo, borrower.login);
    const factorId = String(started.body.factorId);
    const code = await newestCode(borrower.login, 1);
    const added = await api(borrower.token, 'POST', secondFactorEndpoints.activate.href({ factorId }), {
      code,
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    return { ...borrower, factorId };
  }

  it('adds email codes with the mailed code, lists them, asks for one at sign-in, and tells the borrower', async () => {
    const borrower = await signedIn();
    const started = await api(borrower.token, 'POST', secondFactorEndpoints.enrolEmail.path);
    assert.equal(started.status, 200);
    const factorId = String(started.body.factorId);
    const [mail] = await mailFor(server.baseUrl, borrower.login);
    assert.match(
      mail!.subject,
      new RegExp(`^\\d{6} is your ${server.config.lender.name} confirmation code$`),
    );
    const code = codeIn(mail!.subject)!;
    assert.ok(mail!.text.includes(code), 'the code is in the message');
    // Asked for on the account page or at sign-in: the message says where the code goes either way.
    assert.ok(mail!.text.includes(`enter this code where you asked for it: ${code}`), mail!.text);

    const wrong = await api(borrower.token, 'POST', secondFactorEndpoints.activate.href({ factorId }), {
      code: code === '000000' ? '000001' : '000000',
    });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error, SECOND_FACTOR_ERROR_CODES.wrongCode);
    assert.match(String(wrong.body.message), /Check your email/);

    const resent = await api(borrower.token, 'POST', secondFactorEndpoints.resendCode.href({ factorId }));
    assert.equal(resent.status, 200, JSON.stringify(resent.body));
    const newest = await newestCode(borrower.login, 2);
    const added = await api(borrower.token, 'POST', secondFactorEndpoints.activate.href({ factorId }), {
      code: newest,
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const listed = (await api(borrower.token, 'GET', secondFactorEndpoints.list.path)).body.factors as Array<
      Record<string, unknown>
    >;
    assert.deepEqual(
      listed.map((f) => [f.id, f.type]),
      [[factorId, 'email_code']],
    );
    const signIn = await authn(server.baseUrl, borrower.login, PASSWORD, '192.0.2.40');
    assert.equal(((await signIn.json()) as { status: string }).status, 'MFA_REQUIRED');
    const messages = await mailFor(server.baseUrl, borrower.login, 3);
    assert.ok(
      messages.some(
        (m) => m.subject === `Email codes were turned on for your ${server.config.lender.name} account`,
      ),
      messages.map((m) => m.subject).join('; '),
    );
    const again = await api(borrower.token, 'POST', secondFactorEndpoints.enrolEmail.path);
    assert.equal(again.status, 400);
    assert.equal(again.body.error, SECOND_FACTOR_ERROR_CODES.alreadyAdded);
    const activity = await api(borrower.token, 'GET', '/api/account/activity');
    assert.ok(JSON.stringify(activity.body).includes('email_codes_added'), JSON.stringify(activity.body));
  });

  it('limits the codes mailed: starting again and resending share one limit (429)', async () => {
    const borrower = await signedIn();
    const started = await api(borrower.token, 'POST', secondFactorEndpoints.enrolEmail.path);
    const factorId = String(started.body.factorId);
    const answers = [];
    for (let i = 0; i < 3; i += 1) {
      answers.push((await api(borrower.token, 'POST', secondFactorEndpoints.enrolEmail.path)).status);
      answers.push(
        (await api(borrower.token, 'POST', secondFactorEndpoints.resendCode.href({ factorId }))).status,
      );
    }
    assert.deepEqual(answers, [200, 200, 200, 200, 429, 429]);
    const limited = await api(borrower.token, 'POST', secondFactorEndpoints.resendCode.href({ factorId }));
    assert.equal(limited.body.error, SECOND_FACTOR_ERROR_CODES.tooManyCodes);
  });

  it("answers another borrower's factor 404 for resend and activate; refuses bad bodies with 400", async () => {
    const owner = await signedIn();
    const started = await api(owner.token, 'POST', secondFactorEndpoints.enrolEmail.path);
    const factorId = String(started.body.factorId);
    const code = await newestCode(owner.login, 1);
    const other = await signedIn();
    for (const answer of [
      await api(other.token, 'POST', secondFactorEndpoints.resendCode.href({ factorId })),
      await api(other.token, 'POST', secondFactorEndpoints.activate.href({ factorId }), { code }),
      await api(other.token, 'POST', secondFactorEndpoints.resendCode.href({ factorId: 'not an id!' })),
    ]) {
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
    }
    for (const body of [
      {},
      [],
      'text',
      null,
      { currentPassword: '' },
      { currentPassword: 7 },
      { currentPassword: 'a\u0000b' },
    ]) {
      const answer = await api(owner.token, 'POST', recoveryCodeEndpoints.generate.path, body);
      assert.equal(answer.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`);
    }
    assert.equal(
      (await api(undefined as unknown as string, 'GET', recoveryCodeEndpoints.status.path)).status,
      401,
    );
  });

  it('recovery codes: offered after a factor, made for the password (shown once, told), each signs in once', async () => {
    const fresh = await signedIn();
    assert.deepEqual((await api(fresh.token, 'GET', recoveryCodeEndpoints.status.path)).body, {
      offered: false,
      remaining: 0,
    });
    const refused = await api(fresh.token, 'POST', recoveryCodeEndpoints.generate.path, {
      currentPassword: PASSWORD,
    });
    assert.equal(refused.status, 400, 'not before a second factor');

    const borrower = await withEmailCodes();
    assert.deepEqual((await api(borrower.token, 'GET', recoveryCodeEndpoints.status.path)).body, {
      offered: true,
      remaining: 0,
    });
    const wrong = await api(borrower.token, 'POST', recoveryCodeEndpoints.generate.path, {
      currentPassword: 'Not-My-Pass-1',
    });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error, ACCOUNT_ERROR_CODES.wrongPassword);
    const made = await api(borrower.token, 'POST', recoveryCodeEndpoints.generate.path, {
      currentPassword: PASSWORD,
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const codes = made.body.codes as string[];
    assert.equal(codes.length, 10);
    assert.equal((await api(borrower.token, 'GET', recoveryCodeEndpoints.status.path)).body.remaining, 10);
    const messages = await mailFor(server.baseUrl, borrower.login, 3);
    assert.ok(
      messages.some(
        (m) => m.subject === `New recovery codes were made for your ${server.config.lender.name} account`,
      ),
    );
    assert.ok(
      messages.every((m) => !codes.some((c) => m.text.includes(c))),
      'codes are never mailed',
    );

    // One signs in (Okta's authn steps, as the portal's sign-in takes them), once.
    const useCode = async (code: string) => {
      const first = (await (await authn(server.baseUrl, borrower.login, PASSWORD, '192.0.2.41')).json()) as {
        stateToken: string;
        _embedded: { factors: Array<{ factorType: string; _links: { verify: { href: string } } }> };
      };
      const recovery = first._embedded.factors.find((f) => f.factorType === 'recovery_code')!;
      const path = new URL(recovery._links.verify.href).pathname;
      return json(await post(server.baseUrl, path, { stateToken: first.stateToken, passCode: code }));
    };
    assert.equal((await useCode(codes[0]!)).body.status, 'SUCCESS');
    assert.equal((await useCode(codes[0]!)).status, 403, 'never twice');
    assert.equal((await api(borrower.token, 'GET', recoveryCodeEndpoints.status.path)).body.remaining, 9);

    // A new set voids the old.
    const remade = await api(borrower.token, 'POST', recoveryCodeEndpoints.generate.path, {
      currentPassword: PASSWORD,
    });
    assert.equal(remade.status, 200);
    assert.equal((await useCode(codes[1]!)).status, 403);
    const activity = await api(borrower.token, 'GET', '/api/account/activity');
    assert.ok(JSON.stringify(activity.body).includes('recovery_codes_generated'));

    // Removing the last factor takes the codes with it.
    const removed = await api(
      borrower.token,
      'POST',
      secondFactorEndpoints.remove.href({ factorId: borrower.factorId }),
      {
        currentPassword: PASSWORD,
      },
    );
    assert.equal(removed.status, 200);
    assert.deepEqual((await api(borrower.token, 'GET', recoveryCodeEndpoints.status.path)).body, {
      offered: false,
      remaining: 0,
    });
  });

  it("MFA_POLICY=off refuses every second factor's route with 403: the list, an app's, email codes', recovery codes'", async () => {
    const borrower = await signedIn(off);
    const unknownFactor = 'uf0000000000000000';
    for (const answer of [
      await api(borrower.token, 'GET', secondFactorEndpoints.list.path, undefined, off),
      await api(borrower.token, 'POST', secondFactorEndpoints.enrolAuthenticatorApp.path, undefined, off),
      await api(
        borrower.token,
        'POST',
        secondFactorEndpoints.activate.href({ factorId: unknownFactor }),
        { code: '123456' },
        off,
      ),
      await api(
        borrower.token,
        'POST',
        secondFactorEndpoints.remove.href({ factorId: unknownFactor }),
        { currentPassword: PASSWORD },
        off,
      ),
      await api(borrower.token, 'POST', secondFactorEndpoints.enrolEmail.path, undefined, off),
      await api(borrower.token, 'GET', recoveryCodeEndpoints.status.path, undefined, off),
    ]) {
      assert.equal(answer.status, 403, JSON.stringify(answer.body));
      assert.equal(answer.body.error, SECOND_FACTOR_ERROR_CODES.off);
    }
  });
});
