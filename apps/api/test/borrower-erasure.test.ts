import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import {
  applicationEndpoints,
  auditEndpoints,
  authEndpoints,
  dataRightsEndpoints,
  LoanDetailSchema,
  loanEndpoints,
  type AuditRecordView,
} from '@customer-core/contracts';
import { runCli } from '../src/cli/run.js';
import { startTestServer, type TestServer } from '../testing/index.js';
import { uniqueEmail } from './support/joining.js';
import { authn } from './support/links.js';
import {
  activeLoan,
  addLoan,
  call,
  completeCheckout,
  loanIdOf,
  newBorrowerToken,
  OPERATOR_ENV,
  OPERATOR_SECRET,
} from './support/loans.js';
import { post } from './support/session.js';

// Erasing a borrower's data where the law allows: their sign-in account and activity go; loans with
// their signatures, applications younger than 25 months and the audit trail stay, each said with
// its reason; nothing goes while a legal hold keeps it.

const PASSWORD = 'Borrower-Pass-42'; // newBorrowerToken's

describe('a borrower’s data, erased', () => {
  let server: TestServer;
  let url: string;

  before(async () => {
    server = await startTestServer('pglite', OPERATOR_ENV);
    url = server.baseUrl;
  });
  after(() => server?.close());

  const operator = (method: 'POST' | 'PUT', path: string, body: unknown) =>
    call(url, method, path, OPERATOR_SECRET, body);
  const erase = (email: string) => operator('POST', dataRightsEndpoints.eraseBorrower.path, { email });
  const rowsOf = async (
    table: 'borrower' | 'loan_application' | 'security_event' | 'esign_consent',
    where: ReturnType<typeof sql<boolean>>,
  ) =>
    (
      await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where ${where}`.execute(
        server.server.db,
      )
    ).rows[0]!.n;

  /** A borrower who applied long ago and lately, was given a loan and signed it. */
  async function borrowerWithALoan() {
    const email = uniqueEmail('erased');
    const token = await newBorrowerToken(server, email);
    const reference = `LN-ERA${Date.now().toString(36).toUpperCase()}`;
    assert.equal((await addLoan(url, activeLoan(reference, email))).status, 201);
    const loanId = await loanIdOf(server, reference);
    await completeCheckout(url, token, loanId, 'Otto Other');
    const application = {
      businessName: 'Other Works LLC',
      contactName: 'Otto Other',
      email,
      amountRequested: 50_000,
      purpose: 'equipment',
    };
    assert.equal((await post(url, applicationEndpoints.start.path, application)).status, 201);
    await sql`insert into loan_application (business_name, contact_name, email, amount_requested, purpose, created_at)
      values ('Other Works LLC', 'Otto Other', ${email}, 20000, 'equipment', now() - interval '26 months')`.execute(
      server.server.db,
    );
    const [borrower] = (
      await sql<{
        id: string;
        idp_subject: string;
      }>`select id, idp_subject from borrower where email = ${email}`.execute(server.server.db)
    ).rows;
    return { email, token, loanId, borrowerId: borrower!.id, userId: borrower!.idp_subject };
  }

  it('erases nothing while a legal hold keeps the data, then what the law allows once it is lifted', async () => {
    const { email, token, loanId, borrowerId, userId } = await borrowerWithALoan();
    const held = await operator('PUT', dataRightsEndpoints.legalHold.path, {
      email,
      hold: true,
      reason: 'Litigation 2026-114',
    });
    assert.equal(held.status, 200);
    const refused = await erase(email);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error, 'legal_hold');
    assert.match(
      String(refused.body.message),
      /^A legal hold keeps this borrower's data since \d{4}-\d\d-\d\d: Litigation 2026-114\.$/,
    );
    assert.equal((await call(url, 'GET', authEndpoints.profile.path, token)).status, 200, 'still signed in');
    assert.ok(await server.server.identityProvider!.users.findById(userId), 'their sign-in account kept');

    assert.equal(
      (await operator('PUT', dataRightsEndpoints.legalHold.path, { email, hold: false })).status,
      200,
    );
    const erased = await erase(email);
    assert.equal(erased.status, 200, JSON.stringify(erased.body));
    const report = erased.body as { erased: string[]; kept: Array<{ what: string; why: string }> };
    assert.equal(
      report.erased[0],
      'Their sign-in account: password, second factors, passkeys, recovery codes and sessions.',
    );
    assert.match(
      report.erased[1]!,
      /^\d+ sign-in sessions?, \d+ security events?, \d+ known devices?, and their one-time links and codes\.$/,
    );
    assert.ok(
      report.erased.includes('1 loan application over 25 months old.'),
      JSON.stringify(report.erased),
    );
    assert.deepEqual(
      report.kept.map((kept) => kept.what),
      [
        '1 loan, with schedules, documents, signatures and e-signature consents; their name and e-mail address with them.',
        `1 loan application made since ${new Date(new Date().setUTCMonth(new Date().getUTCMonth() - 25)).toISOString().slice(0, 10)}.`,
        'The audit records of their account, this erasure among them.',
      ],
    );
    assert.match(report.kept[1]!.why, /12 CFR 1002\.12\(b\)\(1\)/);

    // Signed out everywhere, unable to sign in, their activity gone; the loan and its evidence kept.
    assert.equal((await call(url, 'GET', authEndpoints.profile.path, token)).status, 401);
    assert.equal(await server.server.identityProvider!.users.findById(userId), undefined);
    assert.equal((await authn(url, email, PASSWORD)).status, 401);
    assert.equal(await rowsOf('security_event', sql`borrower_id = ${borrowerId}`), 0);
    assert.equal(await rowsOf('borrower', sql`id = ${borrowerId} and idp_subject is null`), 1);
    assert.equal(await rowsOf('esign_consent', sql`borrower_id = ${borrowerId}`), 1);
    assert.equal(await rowsOf('loan_application', sql`email = ${email}`), 1);
    assert.equal(
      LoanDetailSchema.safeParse((await call(url, 'GET', loanEndpoints.loan.href({ loanId }), token)).body)
        .success,
      false,
    );
    const { n: loans } = (
      await sql<{ n: number }>`select count(*)::int as n from loan where id = ${loanId}`.execute(
        server.server.db,
      )
    ).rows[0]!;
    assert.equal(loans, 1);

    const audit = await call(
      url,
      'GET',
      `${auditEndpoints.records.path}?target=${encodeURIComponent(`email:${email}`)}&order=oldest`,
      OPERATOR_SECRET,
    );
    assert.deepEqual(
      (audit.body as { records: AuditRecordView[] }).records.map((record) => [record.action, record.outcome]),
      [
        ['PUT /api/operator/borrowers/legal-hold', 200],
        ['POST /api/operator/borrowers/erase', 409],
        ['PUT /api/operator/borrowers/legal-hold', 200],
        ['POST /api/operator/borrowers/erase', 200],
      ],
    );
  });

  it('erases the borrower entirely when no loan or application keeps them', async () => {
    const email = uniqueEmail('gone');
    await newBorrowerToken(server, email);
    const erased = await erase(email);
    assert.equal(erased.status, 200);
    assert.ok((erased.body.erased as string[]).includes('Their name and e-mail address.'));
    assert.equal(await rowsOf('borrower', sql`lower(email) = ${email}`), 0);
    assert.equal((await erase(email)).status, 404, 'nothing left to erase');
  });

  it('answers 404 to an address no borrower has, 400 to bad input, 403 to a borrower', async () => {
    assert.equal((await erase(uniqueEmail('nobody'))).status, 404);
    assert.equal(
      (
        await operator('PUT', dataRightsEndpoints.legalHold.path, {
          email: uniqueEmail('nobody'),
          hold: false,
        })
      ).status,
      404,
    );
    for (const body of [
      { email: 'x' },
      { email: uniqueEmail('x'), hold: true },
      { email: uniqueEmail('x'), hold: true, reason: 'two\nlines' },
      { email: uniqueEmail('x'), hold: 'yes' },
    ])
      assert.equal(
        (await operator('PUT', dataRightsEndpoints.legalHold.path, body)).status,
        400,
        JSON.stringify(body),
      );
    const token = await newBorrowerToken(server, uniqueEmail('curious'));
    assert.equal(
      (await call(url, 'POST', dataRightsEndpoints.eraseBorrower.path, token, { email: 'a@b.co' })).status,
      403,
    );
  });

  it('is run with npm run cli -- legal-hold and erase-borrower', async () => {
    const email = uniqueEmail('cli-erased');
    await newBorrowerToken(server, email);
    const run = async (...args: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(
        args,
        { PORTAL_URL: url, OPERATOR_CREDENTIAL: OPERATOR_SECRET },
        {
          out: (line) => out.push(line),
          err: (line) => err.push(line),
        },
      );
      return { code, stdout: out.join('\n'), stderr: err.join('\n') };
    };
    assert.equal(
      (await run('legal-hold', '--email', email, '--hold', 'Examination 7')).stdout,
      `A legal hold now keeps ${email}'s data.`,
    );
    const refused = await run('erase-borrower', '--email', email);
    assert.deepEqual(
      [
        refused.code,
        /A legal hold keeps this borrower's data since .*: Examination 7\./.test(refused.stderr),
      ],
      [1, true],
    );
    assert.equal(
      (await run('legal-hold', '--email', email, '--lift')).stdout,
      `The legal hold on ${email}'s data is lifted.`,
    );
    const erased = await run('erase-borrower', '--email', email, '--reason', 'Erasure request 31');
    assert.equal(erased.code, 0, erased.stderr);
    assert.match(
      erased.stdout,
      new RegExp(`^Erased, of ${email.replaceAll('.', '\\.')}:\\n  - Their sign-in account`),
    );
    assert.match(
      erased.stdout,
      /^Kept:\n {2}- The audit records of their account, this erasure among them\.\n {4}Why: /m,
    );
    assert.equal((await run('legal-hold', '--email', email)).code, 2);
    assert.equal((await run('legal-hold', '--email', email, '--hold', 'x', '--lift')).code, 2);
  });
});
