import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testDatabaseKinds } from '@customer-core/database/testing';
import type { FactorCodeMail } from '../src/index.js';
import { ACCOUNT_MAX_FAILURES } from '../src/login-failure-repository.js';
import { ENROLMENT_MAX_WRONG_CODES } from '../src/factors/user-factors.js';
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

// Every code's ceiling holds under concurrency: many wrong codes at once, from many networks and
// across many transactions of one user, are checked no more often than the ceiling allows, and the
// right code presented afterwards is refused. On PostgreSQL the requests really run side by side.

type Body = Record<string, unknown>;
interface Link {
  href: string;
}
interface FactorEntry {
  id: string;
  factorType: string;
  _links: Record<string, Link>;
}

const wrongEmailCodes = (right: string, count: number) =>
  Array.from({ length: count + 1 }, (_, n) => String(n).padStart(6, '0'))
    .filter((code) => code !== right)
    .slice(0, count);
/** Well-formed recovery codes (16 characters of its alphabet) that no user holds. */
const wrongRecoveryCodes = (count: number) =>
  Array.from({ length: count }, (_, n) => `zzzz-zzzz-zzzz-${String(n).padStart(4, '0')}`);

const factorsOf = (body: Body) => (body._embedded as { factors: FactorEntry[] }).factors;

for (const kind of testDatabaseKinds()) {
  describe(`ceilings on wrong codes under concurrency (${kind})`, () => {
    // Wrong codes fired at once against a ceiling of 20. On PostgreSQL three times the ceiling, many
    // times the pool's connections, so the checks race and queue both; PGlite runs one statement at a
    // time, so a few past the ceiling meet it as many would. More only costs time: each code beyond
    // the ceiling is refused the same way.
    const FLOOD = kind === 'postgres' ? 60 : 25;
    const token = apiToken();
    const mails: FactorCodeMail[] = [];
    let testDb: TestDb;
    let server: TestApp;
    let required: TestApp;

    before(async () => {
      testDb = await openTestDb(kind);
      const factorCodeMailer = async (mail: FactorCodeMail) => void mails.push(mail);
      server = await startApp(testDb.db, {
        apiTokens: [token],
        factorCodeMailer,
        // The Users API's own request limit is not what these tests are about.
        usersApiRateLimit: { max: 10_000, windowSeconds: 60 },
      });
      required = await startApp(testDb.db, { mfaPolicy: 'required', factorCodeMailer });
    });
    after(async () => {
      await server?.close();
      await required?.close();
      await testDb?.close();
    });

    const api = (method: string, path: string, body?: unknown) =>
      oktaApi(server.baseUrl, method, path, { token, body });
    const lastCodeTo = (login: string) => mails.findLast((mail) => mail.to === login)!.code;

    const createUser = () => newUser(server, 'ceiling');

    /** A step of the authn API at `href`'s path, from a network of its own (as a botnet would). */
    const step = (at: TestApp, link: Link, body: Body) =>
      postJson(at.baseUrl, new URL(link.href).pathname, body);

    async function enrolTotp(userId: string) {
      const enrolled = await api('POST', `/api/v1/users/${userId}/factors`, {
        factorType: 'token:software:totp',
        provider: 'GOOGLE',
      });
      assert.equal(enrolled.status, 200, JSON.stringify(enrolled.body));
      const secret = (enrolled.body._embedded as { activation: { sharedSecret: string } }).activation
        .sharedSecret;
      return { factorId: String(enrolled.body.id), secret };
    }
    const activation = (userId: string, factorId: string, passCode: string) =>
      api('POST', `/api/v1/users/${userId}/factors/${factorId}/lifecycle/activate`, { passCode });

    async function totpUser() {
      const user = await createUser();
      const { factorId, secret } = await enrolTotp(user.id);
      assert.equal((await activation(user.id, factorId, totpCode(secret))).status, 200);
      return { ...user, secret };
    }

    /**
     * `count` sign-ins of the user waiting for the second factor (MFA_REQUIRED): the first with the
     * password at the authn API, the others as the provider goes on from a password it has checked
     * (passwordSignIn), the same transaction without another password hash of CPU each.
     */
    async function openTransactions(user: { login: string; id: string }, count: number) {
      const first = await authn(server.baseUrl, { username: user.login, password: PASSWORD });
      assert.equal(first.body.status, 'MFA_REQUIRED', JSON.stringify(first.body));
      const opened: Body[] = [first.body];
      for (let n = 1; n < count; n += 1) {
        const next = await server.idp.passwordSignIn(user.id);
        assert.ok(next.kind === 'factor', JSON.stringify(next));
        opened.push({ ...first.body, stateToken: next.stateToken });
      }
      return opened;
    }

    /**
     * Fires the wrong codes at once, spread over the transactions; answers how many were checked
     * (refused as wrong: E0000068) rather than refused unchecked (the lockout's E0000069, or E0000011
     * once the lockout has ended the transaction).
     */
    async function flood(
      transactions: Body[],
      factorType: string,
      codes: string[],
      at = server,
    ): Promise<number> {
      const answers = await Promise.all(
        codes.map((passCode, n) => {
          const transaction = transactions[n % transactions.length]!;
          const factor = factorsOf(transaction).find((f) => f.factorType === factorType)!;
          return step(at, factor._links.verify!, { stateToken: transaction.stateToken, passCode });
        }),
      );
      for (const answer of answers)
        assert.ok(
          ['E0000068', 'E0000069', 'E0000011'].includes(String(answer.body.errorCode)),
          JSON.stringify(answer.body),
        );
      return answers.filter((answer) => answer.body.errorCode === 'E0000068').length;
    }

    /** The right code, after the flood, in the transaction kept aside: refused, as the lockout answers. */
    async function refusedAfterwards(transaction: Body, factorType: string, passCode: string) {
      const factor = factorsOf(transaction).find((f) => f.factorType === factorType)!;
      const answer = await step(server, factor._links.verify!, {
        stateToken: transaction.stateToken,
        passCode,
      });
      assert.equal(answer.status, 403, `the right code is refused: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.errorCode, 'E0000069');
    }

    test('authenticator app at sign-in: many wrong codes at once over 20 transactions check at most 20', async () => {
      const user = await totpUser();
      const [kept, ...flooded] = await openTransactions(user, 21);
      const checked = await flood(flooded, 'token:software:totp', wrongTotpCodes(user.secret, FLOOD));
      assert.ok(checked <= ACCOUNT_MAX_FAILURES, `${checked} wrong codes were checked`);
      await refusedAfterwards(kept!, 'token:software:totp', totpCode(user.secret));
    });

    test('e-mailed code at sign-in: many wrong codes at once over 20 transactions check at most 20', async () => {
      const user = await createUser();
      const enrolled = await api('POST', `/api/v1/users/${user.id}/factors`, {
        factorType: 'email',
        provider: 'OKTA',
        profile: { email: user.login },
      });
      assert.equal((await activation(user.id, String(enrolled.body.id), lastCodeTo(user.login))).status, 200);
      const [kept, ...flooded] = await openTransactions(user, 21);
      const email = factorsOf(kept!).find((f) => f.factorType === 'email')!;
      const sent = await step(server, email._links.verify!, { stateToken: kept!.stateToken });
      assert.equal(sent.body.status, 'MFA_CHALLENGE', JSON.stringify(sent.body));
      const code = lastCodeTo(user.login);
      const checked = await flood(flooded, 'email', wrongEmailCodes(code, FLOOD));
      assert.ok(checked <= ACCOUNT_MAX_FAILURES, `${checked} wrong codes were checked`);
      await refusedAfterwards(
        {
          ...sent.body,
          _embedded: {
            factors: [{ ...email, _links: { verify: (sent.body._links as { next: Link }).next } }],
          },
        },
        'email',
        code,
      );
    });

    test('recovery code at sign-in: many wrong codes at once over 20 transactions check at most 20', async () => {
      const user = await totpUser();
      const [right] = (await server.idp.factors.recoveryCodes.generate(user.id))!;
      const [kept, ...flooded] = await openTransactions(user, 21);
      const checked = await flood(flooded, 'recovery_code', wrongRecoveryCodes(FLOOD));
      assert.ok(checked <= ACCOUNT_MAX_FAILURES, `${checked} wrong codes were checked`);
      await refusedAfterwards(kept!, 'recovery_code', right!);
      assert.equal(await server.idp.factors.recoveryCodes.remaining(user.id), 10, 'no code was used');
    });

    test('activation at sign-in (MFA_ENROLL_ACTIVATE), app and e-mail: many wrong codes at once check at most 20', async () => {
      for (const factorType of ['token:software:totp', 'email'] as const) {
        const user = await createUser();
        const first = await authn(required.baseUrl, { username: user.login, password: PASSWORD });
        assert.equal(first.body.status, 'MFA_ENROLL');
        const offered = factorsOf(first.body).find((f) => f.factorType === factorType)!;
        const enrolled = await step(required, offered._links.enroll!, {
          stateToken: first.body.stateToken,
          factorType,
          provider: factorType === 'email' ? 'OKTA' : 'GOOGLE',
        });
        assert.equal(enrolled.body.status, 'MFA_ENROLL_ACTIVATE', JSON.stringify(enrolled.body));
        const factor = (enrolled.body._embedded as { factor: Body }).factor;
        const right =
          factorType === 'email'
            ? lastCodeTo(user.login)
            : totpCode(
                (factor._embedded as { activation: { sharedSecret: string } }).activation.sharedSecret,
              );
        const wrong =
          factorType === 'email'
            ? wrongEmailCodes(right, FLOOD)
            : wrongTotpCodes(
                (factor._embedded as { activation: { sharedSecret: string } }).activation.sharedSecret,
                FLOOD,
              );
        const next = (enrolled.body._links as { next: Link }).next;
        const answers = await Promise.all(
          wrong.map((passCode) => step(required, next, { stateToken: enrolled.body.stateToken, passCode })),
        );
        const checked = answers.filter((answer) => answer.body.errorCode === 'E0000068').length;
        assert.ok(checked <= ACCOUNT_MAX_FAILURES, `${factorType}: ${checked} wrong codes were checked`);
        const last = await step(required, next, { stateToken: enrolled.body.stateToken, passCode: right });
        assert.notEqual(last.status, 200, `${factorType}: the right code is refused`);
      }
    });

    test('activation outside a sign-in (Factors API), app and e-mail: many wrong codes at once check at most 20, then the enrolment is spent', async () => {
      for (const factorType of ['token:software:totp', 'email'] as const) {
        const user = await createUser();
        const enrolled =
          factorType === 'email'
            ? await api('POST', `/api/v1/users/${user.id}/factors`, {
                factorType,
                provider: 'OKTA',
                profile: { email: user.login },
              })
            : await api('POST', `/api/v1/users/${user.id}/factors`, { factorType, provider: 'GOOGLE' });
        assert.equal(enrolled.status, 200, JSON.stringify(enrolled.body));
        const factorId = String(enrolled.body.id);
        const secret =
          factorType === 'email'
            ? undefined
            : (enrolled.body._embedded as { activation: { sharedSecret: string } }).activation.sharedSecret;
        const right = secret === undefined ? lastCodeTo(user.login) : totpCode(secret);
        const wrong = secret === undefined ? wrongEmailCodes(right, FLOOD) : wrongTotpCodes(secret, FLOOD);
        const answers = await Promise.all(wrong.map((passCode) => activation(user.id, factorId, passCode)));
        const checked = answers.filter((answer) => answer.body.errorCode === 'E0000068').length;
        assert.ok(
          checked <= ENROLMENT_MAX_WRONG_CODES,
          `${factorType}: ${checked} wrong activation codes were checked`,
        );
        const last = await activation(user.id, factorId, right);
        assert.equal(
          last.status,
          403,
          `${factorType}: the right code is refused: ${JSON.stringify(last.body)}`,
        );
        assert.equal(last.body.errorCode, 'E0000069');
        const listed = (await api('GET', `/api/v1/users/${user.id}/factors`)).body as unknown as Body[];
        assert.deepEqual(
          listed.map((f) => f.status),
          ['PENDING_ACTIVATION'],
        );
        // Started again, the enrolment takes its first code.
        const again =
          factorType === 'email'
            ? await api('POST', `/api/v1/users/${user.id}/factors`, {
                factorType,
                provider: 'OKTA',
                profile: { email: user.login },
              })
            : await api('POST', `/api/v1/users/${user.id}/factors`, { factorType, provider: 'GOOGLE' });
        const code =
          factorType === 'email'
            ? lastCodeTo(user.login)
            : totpCode(
                (again.body._embedded as { activation: { sharedSecret: string } }).activation.sharedSecret,
              );
        const restarted = await activation(user.id, String(again.body.id), code);
        assert.equal(restarted.status, 200, JSON.stringify(restarted.body));
      }
    });
  });
}
