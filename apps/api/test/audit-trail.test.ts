import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import {
  accountEndpoints,
  AUDIT_REASON_HEADER,
  authEndpoints,
  auditEndpoints,
  operatorEndpoints,
  type AuditChainCheckView,
  type AuditRecordView,
} from '@customer-core/contracts';
import { startTestServer, type TestServer } from '../testing/index.js';
import { uniqueEmail } from './support/joining.js';
import {
  activeLoan,
  addLoan,
  call,
  newBorrowerToken,
  OPERATOR_ENV,
  OPERATOR_SECRET,
} from './support/loans.js';
import { json, post } from './support/session.js';
import { createUser, mailFor, tokenOf } from './support/links.js';

// Every operator call (a read too, a refusal too) and every change a borrower makes to their own
// account goes in the audit trail, with who, what, to what, why and from where; operators read it and
// check its chain through the API (`npm run cli -- audit`).

describe('the audit trail of calls', () => {
  let server: TestServer;
  let url: string;

  before(async () => {
    server = await startTestServer('pglite', OPERATOR_ENV);
    url = server.baseUrl;
  });
  after(() => server?.close());

  const operatorCall = async (
    method: 'GET' | 'POST',
    path: string,
    { body, reason }: { body?: unknown; reason?: string } = {},
  ) =>
    json<Record<string, unknown>>(
      await fetch(`${url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${OPERATOR_SECRET}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(reason === undefined ? {} : { [AUDIT_REASON_HEADER]: reason }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );

  const records = async (query: Record<string, string>) => {
    const answer = await operatorCall('GET', `${auditEndpoints.records.path}?${new URLSearchParams(query)}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body as { records: AuditRecordView[]; next: number | null };
  };

  it('records an operator’s change with the credential’s name, its fields, the reason, the address and the request id', async () => {
    const email = uniqueEmail('audited');
    const invited = await operatorCall('POST', operatorEndpoints.invitations.path, {
      body: { email, firstName: 'Ana', lastName: 'Audit' },
      reason: 'Onboarding call, ticket 4512',
    });
    assert.equal(invited.status, 201);

    const [record, ...rest] = (await records({ target: `email:${email}` })).records;
    assert.equal(rest.length, 0);
    assert.deepEqual(
      {
        actor: record!.actor,
        role: record!.role,
        action: record!.action,
        outcome: record!.outcome,
        request: record!.request,
        reason: record!.reason,
        clientAddress: record!.clientAddress,
      },
      {
        actor: 'service:operator',
        role: 'operator',
        action: 'POST /api/operator/invitations',
        outcome: 201,
        request: { email, firstName: 'Ana', lastName: 'Audit' },
        reason: 'Onboarding call, ticket 4512',
        clientAddress: '127.0.0.1',
      },
    );
    assert.match(record!.requestId ?? '', /\S/);
  });

  it('records a loan’s terms before and after an operator changed them', async () => {
    const reference = `LN-AUD${Date.now().toString(36).toUpperCase()}`;
    assert.equal((await addLoan(url, activeLoan(reference, uniqueEmail('loan')))).status, 201);
    const changed = await call(
      url,
      'PATCH',
      operatorEndpoints.loan.path.replace(':reference', reference),
      OPERATOR_SECRET,
      {
        balanceCents: 12_000_000,
      },
    );
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    const [record] = (await records({ target: `reference:${reference}` })).records;
    assert.equal(record!.action, 'PATCH /api/operator/loans/:reference');
    assert.deepEqual(record!.request, { balanceCents: 12_000_000 });
    const terms = {
      product: 'Term loan',
      status: 'ACTIVE',
      amountCents: 12_500_000,
      nextPayment: { dueOn: '2031-03-01', amountCents: 271_450 },
    };
    assert.deepEqual(record!.before, { ...terms, balanceCents: 12_500_000 });
    assert.deepEqual(record!.after, { ...terms, balanceCents: 12_000_000 });
  });

  it('records reads (who looked at whom) and refusals, without the fields of a refused call', async () => {
    const email = uniqueEmail('nobody');
    const looked = await operatorCall(
      'GET',
      `${operatorEndpoints.sessions.path}?email=${encodeURIComponent(email)}`,
    );
    assert.equal(looked.status, 404);
    const refused = await operatorCall('POST', operatorEndpoints.invitations.path, {
      body: { email, firstName: '', lastName: 'x'.repeat(5000) },
    });
    assert.equal(refused.status, 400);

    const found = (await records({ target: `email:${email}`, order: 'oldest' })).records;
    assert.deepEqual(
      found.map((record) => [record.action, record.outcome, record.request]),
      [
        ['GET /api/operator/sessions', 404, undefined],
        ['POST /api/operator/invitations', 400, undefined],
      ],
    );
  });

  it('records a refused call whatever it named, and the chain stays whole', async () => {
    // A NUL, which PostgreSQL's text refuses, and half of a UTF-16 pair, which UTF-8 cannot carry.
    const ended = await operatorCall('POST', operatorEndpoints.endAllSessions.path, {
      body: { email: 'nul\u0000.\ud800lone@example.com' },
    });
    assert.equal(ended.status, 400);
    const [record] = (await records({ action: 'POST /api/operator/sessions/end-all', limit: '1' })).records;
    assert.deepEqual([record?.target, record?.outcome], ['email:nul\ufffd.\ufffdlone@example.com', 400]);
    const check = await operatorCall('GET', auditEndpoints.verification.path);
    assert.equal((check.body as unknown as AuditChainCheckView).intact, true);
  });

  it('refuses a reason that is not one line of at most 500 characters', async () => {
    for (const reason of ['x'.repeat(501), 'two\tparts'])
      assert.equal(
        (await operatorCall('GET', auditEndpoints.verification.path, { reason })).status,
        400,
        JSON.stringify(reason.slice(0, 10)),
      );
  });

  it('records each change a borrower makes to their own account, never its fields', async () => {
    const token = await newBorrowerToken(server, uniqueEmail('self'));
    // A borrower gives no reasons: the header is an operator's.
    const changedLanguage = await fetch(`${url}${accountEndpoints.setLanguage.path}`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        [AUDIT_REASON_HEADER]: 'mine',
      },
      body: JSON.stringify({ locale: 'es-US' }),
    });
    assert.equal(changedLanguage.status, 200);
    const wrong = await call(url, 'POST', accountEndpoints.password.path, token, {
      currentPassword: 'Not-The-Password-9',
      newPassword: 'A-New-Password-77',
      signOutOtherSessions: false,
    });
    assert.equal(wrong.status, 400, JSON.stringify(wrong.body));
    // Reading their own account is not a change.
    assert.equal((await call(url, 'GET', accountEndpoints.sessions.path, token)).status, 200);

    const language = (await records({ action: 'PUT /api/account/language', order: 'newest', limit: '1' }))
      .records[0]!;
    assert.match(language.actor, /^borrower:[0-9a-f-]{36}$/);
    assert.equal(language.reason, null);
    const mine = (await records({ actor: language.actor, order: 'oldest' })).records;
    assert.deepEqual(
      mine.map((record) => [record.role, record.action, record.target, record.outcome]),
      [
        ['borrower', 'PUT /api/account/language', language.actor, 200],
        ['borrower', 'POST /api/account/password', language.actor, 400],
      ],
    );
    const stored = JSON.stringify(mine);
    assert.ok(!stored.includes('Not-The-Password-9') && !stored.includes('A-New-Password-77'), stored);
    assert.ok(mine.every((record) => record.request === undefined));
  });

  it('records a password reset by e-mailed link as a change by the link’s borrower, never its fields', async () => {
    const user = await createUser(server);
    assert.equal((await post(url, authEndpoints.passwordReset.path, { email: user.login })).status, 200);
    const [message] = await mailFor(url, user.login);
    const token = tokenOf(message!, 'password-reset');
    // A dead link changes nothing, so records nothing.
    assert.equal(
      (
        await post(url, authEndpoints.passwordResetFinish.path, {
          token: 'dead',
          password: 'Reset-Pass-4242',
        })
      ).status,
      400,
    );
    const reset = await post(url, authEndpoints.passwordResetFinish.path, {
      token,
      password: 'Reset-Pass-4242',
    });
    assert.equal(reset.status, 200);

    const found = (await records({ action: `POST ${authEndpoints.passwordResetFinish.path}` })).records;
    assert.equal(found.length, 1);
    assert.deepEqual([found[0]!.role, found[0]!.outcome, found[0]!.request], ['borrower', 200, undefined]);
    assert.match(found[0]!.actor, /^(borrower|user):\S+$/);
    assert.ok(!JSON.stringify(found).includes('Reset-Pass-4242'));
  });

  it('pages with a cursor, and refuses a borrower’s token and a bad query', async () => {
    const first = await records({ order: 'oldest', limit: '2' });
    assert.deepEqual(
      first.records.map((record) => record.seq),
      [1, 2],
    );
    assert.equal(first.next, 2);
    const second = await records({ order: 'oldest', limit: '2', after: String(first.next) });
    assert.deepEqual(
      second.records.map((record) => record.seq),
      [3, 4],
    );

    const token = await newBorrowerToken(server, uniqueEmail('curious'));
    for (const endpoint of [auditEndpoints.records, auditEndpoints.verification])
      assert.equal((await call(url, 'GET', endpoint.path, token)).status, 403);
    for (const query of [
      'limit=0',
      'limit=501',
      'after=-1',
      'after=1e400',
      'since=yesterday',
      'order=random',
      'unknown=1',
    ])
      assert.equal((await operatorCall('GET', `${auditEndpoints.records.path}?${query}`)).status, 400, query);
  });

  it('verifies the chain, and finds a record edited in the database', async () => {
    const check = async () => {
      const answer = await operatorCall('GET', auditEndpoints.verification.path);
      assert.equal(answer.status, 200);
      return answer.body as unknown as AuditChainCheckView;
    };
    const intact = await check();
    assert.equal(intact.intact, true, JSON.stringify(intact));
    assert.ok(intact.records >= 8, JSON.stringify(intact));

    const { db } = server.server;
    await sql`alter table audit_record disable trigger audit_record_append_only`.execute(db);
    await sql`update audit_record set entry = replace(entry, '"outcome":201', '"outcome":200') where seq = 1`.execute(
      db,
    );
    await sql`alter table audit_record enable trigger audit_record_append_only`.execute(db);
    const broken = await check();
    assert.deepEqual(
      [broken.intact, broken.problem],
      [false, { seq: 1, what: 'was changed after it was recorded' }],
    );
  });
});
