import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { auditEndpoints, operatorEndpoints, type AuditRecordView } from '@customer-core/contracts';
import { runCli } from '../src/cli/run.js';
import { startTestServer, type TestServer } from '../testing/index.js';
import { uniqueEmail } from './support/joining.js';
import { authn, createUser } from './support/links.js';
import { call, OPERATOR_ENV, OPERATOR_SECRET } from './support/loans.js';

// Support unlocks a borrower locked out of signing in, once it knows the caller is them: from the
// operators' API and `npm run cli -- unlock`, with the reason in the audit trail.

describe('support unlocks a locked-out borrower', () => {
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

  it('answers 404 to an address with no sign-in account, 400 to a bad one, 401 to a borrower', async () => {
    const unlock = (body: unknown, token = OPERATOR_SECRET) =>
      call(url, 'POST', operatorEndpoints.unlockBorrower.path, token, body);
    assert.equal((await unlock({ email: uniqueEmail('nobody') })).status, 404);
    for (const body of [{}, { email: 'x' }, { email: uniqueEmail('x'), extra: 1 }])
      assert.equal((await unlock(body)).status, 400);
    assert.equal((await unlock({ email: uniqueEmail('x') }, 'not-a-credential')).status, 401);
  });
});
