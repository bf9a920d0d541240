import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import {
  AUDIT_REASON_HEADER,
  auditEndpoints,
  authEndpoints,
  operatorEndpoints,
  webhookEndpoints,
  type AuditRecordView,
} from '@customer-core/contracts';
import { runCli } from '../src/cli/run.js';
import { startTestServer, type TestServer } from '../testing/index.js';
import { uniqueEmail } from './support/joining.js';
import { authn, createUser, mailFor } from './support/links.js';
import { call, newBorrowerToken, OPERATOR_ENV, OPERATOR_SECRET } from './support/loans.js';

// What support does for a borrower on the phone, once it knows the caller is them: unlocks their
// sign-in, or removes their second factors after a lost phone; from the operators' API and the CLI,
// with the reason in the audit trail.

describe('support actions', () => {
  let server: TestServer;
  let url: string;

  before(async () => {
    server = await startTestServer('pglite', OPERATOR_ENV);
    url = server.baseUrl;
  });
  after(() => server?.close());

  /** A user locked out by ten wrong passwords from this address: the right one is refused too. */
  async function lockedOut() {
    const user = await createUser(server);
    for (let i = 0; i < 10; i += 1)
      assert.equal((await authn(url, user.login, `Wrong-Pass-${i}`)).status, 401);
    assert.equal((await authn(url, user.login, user.password)).status, 401, 'locked out');
    return user;
  }

  it('lets the borrower sign in again, and keeps the reason', async () => {
    const user = await lockedOut();
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      ['unlock', '--email', user.login, '--reason', 'Caller verified by loan number, ticket 4411'],
      { PORTAL_URL: url, OPERATOR_CREDENTIAL: OPERATOR_SECRET },
      { out: (line) => out.push(line), err: (line) => err.push(line) },
    );
    assert.equal(code, 0, err.join('\n'));
    assert.deepEqual(out, [`${user.login} can sign in again from every address.`]);
    assert.equal((await authn(url, user.login, user.password)).status, 200);

    const audit = await call(
      url,
      'GET',
      `${auditEndpoints.records.path}?action=${encodeURIComponent('POST /api/operator/borrowers/unlock')}`,
      OPERATOR_SECRET,
    );
    const [record] = (audit.body as { records: AuditRecordView[] }).records;
    assert.deepEqual(
      [record?.target, record?.outcome, record?.reason],
      [`email:${user.login}`, 200, 'Caller verified by loan number, ticket 4411'],
    );
  });

  it('removes every second factor after a lost phone, signs the borrower out and tells them; only with a reason', async () => {
    const email = uniqueEmail('lost-phone');
    const token = await newBorrowerToken(server, email);
    const idp = server.server.identityProvider!;
    const user = (await idp.users.findByLogin(email))!;
    const enrolled = await idp.factors.enrolTotp(user.id);
    assert.ok(enrolled.kind === 'enrolled');
    const code = new TOTP({
      secret: Secret.fromBase32(enrolled.factor.secret!),
      digits: 6,
      period: 30,
    }).generate();
    assert.equal((await idp.factors.activate(user.id, enrolled.factor.id, code)).kind, 'activated');
    assert.equal((await idp.factors.recoveryCodes.generate(user.id))?.length, 10);

    const reset = (headers: Record<string, string>) =>
      fetch(`${url}${operatorEndpoints.resetSecondFactors.path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${OPERATOR_SECRET}`,
          'content-type': 'application/json',
          ...headers,
        },
        body: JSON.stringify({ email }),
      });
    // The lender's system that hears of sessions ended by staff (it is not listening: delivery waits).
    const hook = await call(url, 'POST', webhookEndpoints.addEndpoint.path, OPERATOR_SECRET, {
      url: 'http://127.0.0.1:9/hooks',
      eventTypes: ['sessions.ended_by_staff'],
    });
    assert.equal(hook.status, 201);
    const noReason = await reset({});
    assert.equal(noReason.status, 400);
    assert.match(((await noReason.json()) as { message: string }).message, /^Give the reason/);

    const done = await reset({
      [AUDIT_REASON_HEADER]: 'Lost phone; caller verified by loan number, ticket 4412',
    });
    assert.equal(done.status, 200);
    assert.deepEqual(await done.json(), { email, factorsRemoved: 1, sessionsEnded: 1 });
    assert.deepEqual(await idp.factors.list(user.id), []);
    assert.equal(
      await idp.factors.recoveryCodes.remaining(user.id),
      0,
      'recovery codes went with the last factor',
    );
    assert.equal((await call(url, 'GET', authEndpoints.profile.path, token)).status, 401, 'signed out');
    const [message] = await mailFor(url, email);
    assert.equal(
      message!.subject,
      'The second sign-in steps of your Main Street Funding account were removed',
    );
    // The lender's systems are told that staff ended their sessions.
    const { rows: told } = await sql<{ data: unknown }>`
      select payload::jsonb -> 'data' as data from webhook_event e
      where e.type = 'sessions.ended_by_staff'
        and e.payload::jsonb #>> '{data,borrowerId}' = (select id::text from borrower where email = ${email})`.execute(
      server.server.db,
    );
    assert.deepEqual(
      told.map((event) => {
        const { sessions, endedBy } = event.data as { sessions: number; endedBy: string };
        return [sessions, endedBy];
      }),
      [[1, 'service:operator']],
    );
    const activity = await call(
      url,
      'GET',
      `${operatorEndpoints.activity.path}?email=${encodeURIComponent(email)}`,
      OPERATOR_SECRET,
    );
    assert.ok(
      (activity.body as { events: Array<{ kind: string }> }).events.some(
        (event) => event.kind === 'second_factor_removed',
      ),
    );
  });

  it('answers 404 to an address with no sign-in account, 400 to a bad one, 401 to a borrower', async () => {
    const unlock = (body: unknown, token = OPERATOR_SECRET) =>
      call(url, 'POST', operatorEndpoints.unlockBorrower.path, token, body);
    assert.equal((await unlock({ email: uniqueEmail('nobody') })).status, 404);
    for (const body of [{}, { email: 'x' }, { email: uniqueEmail('x'), extra: 1 }])
      assert.equal((await unlock(body)).status, 400);
    assert.equal((await unlock({ email: uniqueEmail('x') }, 'not-a-credential')).status, 401);
  });
});
