import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { strFromU8, unzipSync } from 'fflate';
import {
  applicationEndpoints,
  auditEndpoints,
  dataRightsEndpoints,
  ESIGN_CONSENT,
  operatorEndpoints,
  type AuditRecordView,
} from '@customer-core/contracts';
import { runCli } from '../src/cli/run.js';
import { startTestServer, type TestServer } from '../testing/index.js';
import { uniqueEmail } from './support/joining.js';
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
import { addAccount } from './support/payments.js';

const BANK_ACCOUNT_NUMBER = '77005566';

// A borrower's copy of what the portal holds about them, for operators: one ZIP archive of
// borrower.json and their signed PDFs, never a secret, and the export itself in the audit trail.

interface Exported {
  email: string;
  accounts: Array<{
    borrower: { id: string; email: string; first_name: string };
    identityProvider: { login: string; secondFactors: unknown[] } | null;
    loans: Array<{ reference: string; status: string }>;
    documents: Array<{
      title: string;
      signed_at: string | null;
      signedPdf: string | null;
      signed_body_sha256: string | null;
    }>;
    esignConsents: Array<{ version: string }>;
    bankAccounts: Array<{ account_last4: string; status: string }>;
    applications: Array<{ business_name: string }>;
    sessions: unknown[];
    emails: Array<{ kind: string }>;
    auditRecords: Array<{ action: string }>;
  }>;
}

describe('a borrower’s data, exported', () => {
  let server: TestServer;
  let url: string;
  let folder: string;
  const email = uniqueEmail('export');
  let accessToken: string;
  const reference = `LN-EXP${Date.now().toString(36).toUpperCase()}`;

  before(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'borrower-export-'));
    server = await startTestServer('pglite', OPERATOR_ENV);
    url = server.baseUrl;
    // A borrower who applied, was given a loan, signed its documents, and whose sessions staff ended.
    accessToken = await newBorrowerToken(server, email);
    assert.equal(
      (
        await post(url, applicationEndpoints.start.path, {
          businessName: 'Lovelace Engines LLC',
          contactName: 'Otto Other',
          email,
          amountRequested: 80_000,
          purpose: 'equipment',
        })
      ).status,
      201,
    );
    assert.equal((await addLoan(url, activeLoan(reference, email))).status, 201);
    const loanId = await loanIdOf(server, reference);
    await completeCheckout(url, accessToken, loanId, 'Otto Other');
    await addAccount(url, accessToken, BANK_ACCOUNT_NUMBER);
    assert.equal(
      (await call(url, 'POST', operatorEndpoints.endAllSessions.path, OPERATOR_SECRET, { email })).status,
      200,
    );
  });
  after(async () => {
    await server?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const exportOf = (address: string, token = OPERATOR_SECRET) =>
    fetch(`${url}${dataRightsEndpoints.borrowerExport.path}?email=${encodeURIComponent(address)}`, {
      headers: { authorization: `Bearer ${token}` },
    });

  it('is one ZIP of borrower.json and the signed PDFs, with every kind of thing held about them', async () => {
    const answer = await exportOf(email);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-type'), 'application/zip');
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    const files = unzipSync(new Uint8Array(await answer.arrayBuffer()));
    const data = JSON.parse(strFromU8(files['borrower.json']!)) as Exported;
    assert.equal(data.accounts.length, 1);
    const [account] = data.accounts;
    assert.equal(account!.borrower.email, email);
    assert.equal(account!.identityProvider?.login, email);
    assert.deepEqual(
      account!.loans.map((loan) => [loan.reference, loan.status]),
      [[reference, 'ACTIVE']],
    );
    const signedDocuments = account!.documents.filter((document) => document.signed_at);
    assert.ok(signedDocuments.length >= 2, JSON.stringify(account!.documents));
    for (const document of signedDocuments) {
      assert.match(document.signed_body_sha256 ?? '', /^[0-9a-f]{64}$/);
      const pdf = files[document.signedPdf!];
      assert.ok(pdf, `${document.signedPdf} in the archive`);
      assert.equal(strFromU8(pdf.subarray(0, 5)), '%PDF-');
    }
    assert.deepEqual(
      Object.keys(files)
        .filter((name) => name.startsWith('documents/'))
        .sort(),
      signedDocuments.map((document) => document.signedPdf).sort(),
    );
    assert.deepEqual(
      account!.bankAccounts.map((bank) => [bank.account_last4, bank.status]),
      [['5566', 'pending_verification']],
    );
    assert.ok(!strFromU8(files['borrower.json']!).includes(BANK_ACCOUNT_NUMBER), 'never the whole number');
    assert.deepEqual(
      account!.esignConsents.map((consent) => consent.version),
      [ESIGN_CONSENT.version],
    );
    assert.deepEqual(
      account!.applications.map((application) => application.business_name),
      ['Lovelace Engines LLC'],
    );
    assert.ok(account!.sessions.length >= 1);
    assert.ok(
      account!.emails.some((mail) => mail.kind === 'email-verification'),
      JSON.stringify(account!.emails),
    );
    assert.ok(
      account!.auditRecords.some((record) => record.action === 'POST /api/operator/sessions/end-all'),
    );

    // Never a secret: no token, no hash of one, no password.
    const text = strFromU8(files['borrower.json']!);
    assert.ok(!text.includes(accessToken), 'no access token');
    for (const secret of ['token_hash', 'device_hash', '"password"', 'whsec_', 'PRIVATE KEY', 'secret"'])
      assert.ok(!text.includes(secret), secret);
  });

  it('is itself in the audit trail', async () => {
    const answer = await call(
      url,
      'GET',
      `${auditEndpoints.records.path}?target=${encodeURIComponent(`email:${email}`)}`,
      OPERATOR_SECRET,
    );
    const records = (answer.body as { records: AuditRecordView[] }).records;
    assert.ok(
      records.some(
        (record) => record.action === 'GET /api/operator/borrowers/export' && record.outcome === 200,
      ),
    );
  });

  it('answers 404 to an address no borrower has, 400 to a malformed one, 403 to a borrower', async () => {
    assert.equal((await exportOf(uniqueEmail('nobody'))).status, 404);
    assert.equal((await exportOf('not an address')).status, 400);
    assert.equal((await exportOf(email, accessToken)).status, 403);
  });

  it('is written to an owner-only file by npm run cli -- export-borrower, never over another', async () => {
    const out = path.join(folder, 'borrower-data.zip');
    const io = () => {
      const lines = { out: [] as string[], err: [] as string[] };
      return {
        lines,
        io: { out: (line: string) => lines.out.push(line), err: (line: string) => lines.err.push(line) },
      };
    };
    const env = { PORTAL_URL: url, OPERATOR_CREDENTIAL: OPERATOR_SECRET };
    const first = io();
    assert.equal(
      await runCli(
        ['export-borrower', '--email', email, '--out', out, '--reason', 'Access request 17'],
        env,
        first.io,
      ),
      0,
    );
    assert.match(first.lines.out.join('\n'), /^Wrote .*borrower-data\.zip \(\d+ bytes\): /);
    assert.equal(statSync(out).mode & 0o777, 0o600);
    assert.ok(unzipSync(new Uint8Array(readFileSync(out)))['borrower.json']);
    const again = io();
    assert.equal(await runCli(['export-borrower', '--email', email, '--out', out], env, again.io), 1);
    assert.match(again.lines.err.join('\n'), /^Error: Could not write .*borrower-data\.zip: EEXIST/);
  });
});
