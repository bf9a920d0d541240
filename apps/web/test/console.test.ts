import './support/i18n.ts';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AddStaffUserRequestSchema,
  AddWebhookEndpointRequestSchema,
  AuditReasonSchema,
  BorrowerSearchQuerySchema,
  UpdateLoanRequestSchema,
  auditEndpoints,
  authEndpoints,
  consoleEndpoints,
  contradictionsOf,
  dataRightsEndpoints,
  operatorEndpoints,
  webhookEndpoints,
  type AuditRecordView,
  type LoanTerms,
} from '@customer-core/contracts';
import { csvCell } from '@customer-core/contracts';
import { auditCsv, auditJsonLines } from '../src/console/audit/audit-export.ts';
import { CONSOLE_CONTRACT_MESSAGES } from '../src/console/i18n/contract-messages.ts';
import { centsToDollars, dollarsToCents } from '../src/console/lib/money.ts';
import { staffMay } from '../src/console/lib/staff-access.ts';

const record = (overrides: Partial<AuditRecordView> = {}): AuditRecordView => ({
  seq: 7,
  recordedAt: '2026-03-01T10:00:00.000Z',
  actor: 'staff:ana@example.com',
  role: 'support',
  action: 'borrowers.unlock',
  target: 'dana@example.com',
  outcome: 200,
  reason: null,
  clientAddress: '203.0.113.0/24',
  requestId: 'req-1',
  ...overrides,
});

describe('what each staff role may do in the console', () => {
  it('lets support do support’s calls and nothing that needs an admin', () => {
    for (const endpoint of [
      operatorEndpoints.borrowers,
      consoleEndpoints.borrowerFile,
      operatorEndpoints.unlockBorrower,
      operatorEndpoints.resetSecondFactors,
      operatorEndpoints.endSession,
    ])
      assert.equal(staffMay('support', endpoint), true, endpoint.path);
    for (const endpoint of [
      operatorEndpoints.loans,
      auditEndpoints.records,
      webhookEndpoints.endpoints,
      consoleEndpoints.staffUsers,
      dataRightsEndpoints.eraseBorrower,
      operatorEndpoints.signingKeyRotations,
    ])
      assert.equal(staffMay('support', endpoint), false, endpoint.path);
  });

  it('lets an admin do everything support may, and more', () => {
    for (const endpoint of [
      operatorEndpoints.borrowers,
      operatorEndpoints.loans,
      dataRightsEndpoints.legalHold,
    ])
      assert.equal(staffMay('admin', endpoint), true, endpoint.path);
  });

  it('opens no call that isn’t an operator’s to any staff member', () => {
    assert.equal(staffMay('admin', authEndpoints.profile), false);
    assert.equal(staffMay('admin', { staff: null }), false);
  });
});

describe('the audit trail as files', () => {
  it('quotes a cell only where CSV needs it, doubling its quotes', () => {
    assert.equal(csvCell('plain text'), 'plain text');
    assert.equal(csvCell('a, b'), '"a, b"');
    assert.equal(csvCell('she said "no"'), '"she said ""no"""');
    assert.equal(csvCell('two\nlines'), '"two\nlines"');
    assert.equal(csvCell('carriage\rreturn'), '"carriage\rreturn"');
    assert.equal(csvCell(null), '');
    assert.equal(csvCell(undefined), '');
    assert.equal(csvCell(201), '201');
  });

  it('neutralises a cell a spreadsheet would take for a formula', () => {
    assert.equal(csvCell('=HYPERLINK("http://evil.example")'), `"'=HYPERLINK(""http://evil.example"")"`);
    assert.equal(csvCell('+1+1'), "'+1+1");
    assert.equal(csvCell('-2+3'), "'-2+3");
    assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvCell('\t=1'), "'\t=1");
    assert.equal(csvCell('\r=1'), `"'\r=1"`);
    assert.equal(csvCell('\uFF1D1+1'), "'\uFF1D1+1");
    assert.equal(csvCell('a=1'), 'a=1', 'only at the start');
  });

  it('writes JSON values of a record as JSON text, neutralised and quoted too', () => {
    assert.equal(csvCell({ email: 'dana@example.com' }), '"{""email"":""dana@example.com""}"');
    assert.equal(csvCell(['=cmd']), `"[""=cmd""]"`);
  });

  it('builds a header row and one CRLF-ended row per record', () => {
    const csv = auditCsv([
      record(),
      record({ seq: 8, reason: '=2+2, a lost phone', request: { email: 'x' } }),
    ]);
    const lines = csv.split('\r\n');
    assert.equal(
      lines[0],
      'seq,recordedAt,actor,role,action,target,outcome,reason,clientAddress,requestId,request,before,after',
    );
    assert.equal(
      lines[1],
      '7,2026-03-01T10:00:00.000Z,staff:ana@example.com,support,borrowers.unlock,dana@example.com,200,,203.0.113.0/24,req-1,,,',
    );
    assert.equal(
      lines[2],
      `8,2026-03-01T10:00:00.000Z,staff:ana@example.com,support,borrowers.unlock,dana@example.com,200,"'=2+2, a lost phone",203.0.113.0/24,req-1,"{""email"":""x""}",,`,
    );
    assert.equal(lines[3], '', 'the last row ends with CRLF too');
    assert.equal(auditCsv([]), `${lines[0]}\r\n`);
  });

  it('writes each record on a line of its own as JSON lines, as the API gave it', () => {
    const records = [record(), record({ seq: 8, reason: 'two\nlines' })];
    const lines = auditJsonLines(records).split('\n');
    assert.equal(lines.length, 3);
    assert.deepEqual(
      lines.slice(0, 2).map((line) => JSON.parse(line) as unknown),
      records,
    );
    assert.equal(auditJsonLines([]), '');
  });
});

describe('amounts typed in dollars', () => {
  it('reads dollars and cents, with or without a dollar sign and thousands separators', () => {
    assert.equal(dollarsToCents('1250'), 125_000);
    assert.equal(dollarsToCents('1,250.5'), 125_050);
    assert.equal(dollarsToCents(' $1,250.50 '), 125_050);
    assert.equal(dollarsToCents('0.07'), 7);
    assert.equal(dollarsToCents('0'), 0);
  });

  it('refuses anything else', () => {
    for (const text of ['', 'abc', '-5', '1.234', '12,34', '1,2345', '1e3', '$', '1.'])
      assert.equal(dollarsToCents(text), null, text);
  });

  it('writes cents back as an amount to type', () => {
    assert.equal(centsToDollars(125_050), '1250.50');
    assert.equal(centsToDollars(7), '0.07');
  });
});

describe('the shared schemas’ messages in the console’s catalogue', () => {
  const ids = new Set(CONSOLE_CONTRACT_MESSAGES.map((descriptor) => descriptor.id));
  const messagesOf = (result: { error?: { issues: { message: string }[] } }) =>
    result.error?.issues.map((issue) => issue.message) ?? [];

  it('knows each by its English', () => {
    for (const descriptor of CONSOLE_CONTRACT_MESSAGES) assert.equal(descriptor.message, descriptor.id);
  });

  it('holds every contradiction of a loan’s terms the console may show', () => {
    const terms: LoanTerms = {
      product: 'Line',
      amountCents: 100,
      balanceCents: 0,
      status: 'ACTIVE',
      nextPayment: null,
    };
    const found = [
      { ...terms, balanceCents: 200 },
      {
        ...terms,
        status: 'PAID' as const,
        balanceCents: 50,
        nextPayment: { dueOn: '2026-01-01', amountCents: 0 },
      },
      { ...terms, status: 'CLOSED LOST' as const, nextPayment: { dueOn: '2026-01-01', amountCents: 10 } },
      { ...terms, status: 'PAST DUE' as const },
      { ...terms, balanceCents: 10, nextPayment: { dueOn: '2026-01-01', amountCents: 20 } },
    ].flatMap(contradictionsOf);
    assert.ok(found.length >= 8);
    assert.deepEqual(
      found.filter((message) => !ids.has(message)),
      [],
    );
  });

  it('holds the messages of the forms’ own checks', () => {
    const given = [
      ...messagesOf(
        AddStaffUserRequestSchema.safeParse({
          email: 'a@example.com',
          firstName: '',
          lastName: '',
          role: 'admin',
        }),
      ),
      ...messagesOf(
        AddStaffUserRequestSchema.safeParse({
          email: 'a@example.com',
          firstName: 'x'.repeat(81),
          lastName: 'y'.repeat(81),
          role: 'admin',
        }),
      ),
      ...messagesOf(BorrowerSearchQuerySchema.safeParse({ q: 'x' })),
      ...messagesOf(AuditReasonSchema.safeParse('x'.repeat(501))),
      ...messagesOf(
        AddWebhookEndpointRequestSchema.safeParse({
          url: 'ftp://x',
          eventTypes: [],
          description: 'd'.repeat(201),
        }),
      ),
      ...messagesOf(UpdateLoanRequestSchema.safeParse({})),
    ];
    assert.equal(given.length, 10);
    assert.deepEqual(
      given.filter((message) => !ids.has(message)),
      [],
    );
  });
});
