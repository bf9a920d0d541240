import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import {
  readReturnsFile,
  writeNachaFile,
  type NachaBatch,
  type NachaEntry,
  type Originator,
  type WriteNachaFileInput,
} from '../src/payments/nacha-file.js';
import { returnsFileFor } from '../testing/nacha-returns.js';

// The bank's view of our files: a NACHA parser written apart from the library that writes them, so the
// two do not share a misreading of the layout. Numeric fields come back as numbers.
interface ParsedControl {
  entryAndAddendaCount: number;
  entryHash: number;
  totalDebit: number;
  totalCredit: number;
}
interface ParsedEntry {
  transactionCode: string;
  receivingDFIIdentification: number;
  checkDigit: number;
  dfiAccount: string;
  amount: number;
  identificationNumber: string;
  receivingCompanyName: string;
  addendaIndicator: string;
  traceNumber: number;
}
interface ParsedBatch {
  serviceClassCode: number;
  companyName: string;
  companyId: string;
  entryClassCode: string;
  description: string;
  effectiveDate: string;
  originatingDFIIdentification: string;
  num: number;
  entries: ParsedEntry[];
  footer: ParsedControl & { serviceClassCode: number; companyId: string; num: number };
}
interface ParsedFile {
  file: {
    destination: string;
    origin: string;
    creationDate: string;
    creationTime: string;
    idModifier: string;
    destinationName: string;
    originName: string;
    footer: ParsedControl & { batchCount: number; blockCount: number };
  };
  batches: ParsedBatch[];
}
const parser = createRequire(import.meta.url)('@midlandsbank/node-nacha') as {
  from(text: string): { data: ParsedFile };
};

const ORIGINATOR: Originator = {
  immediateDestination: '021000021',
  immediateDestinationName: 'First Example Bank',
  immediateOrigin: ' 123456789',
  immediateOriginName: 'Example Lending LLC',
  companyName: 'Example Lending',
  companyId: '1123456789',
  odfiRouting: '021000021',
};
const BORROWER_ACCOUNT = '000123456789';
const OTHER_ACCOUNT = '55501234987';

const verification: NachaBatch = {
  purpose: 'verification',
  effectiveOn: '2026-12-01',
  entries: (
    [
      { transactionCode: '22', amountCents: 17, traceSequence: 101 },
      { transactionCode: '22', amountCents: 23, traceSequence: 102 },
      { transactionCode: '27', amountCents: 40, traceSequence: 103 },
    ] as const
  ).map((entry) => ({
    ...entry,
    routingNumber: '121042882',
    accountNumber: BORROWER_ACCOUNT,
    identification: 'BA3F9K2',
    receiverName: 'Acme Café Supplies, Inc.',
  })),
};
// Given out of trace order: the file orders them.
const payments: NachaBatch = {
  purpose: 'payments',
  effectiveOn: '2026-12-02',
  entries: [
    {
      transactionCode: '27',
      routingNumber: '021000021',
      accountNumber: BORROWER_ACCOUNT,
      amountCents: 125_000,
      identification: 'PAY7Q2K9X',
      receiverName: 'Acme Cafe Supplies',
      traceSequence: 105,
    },
    {
      transactionCode: '27',
      routingNumber: '121042882',
      accountNumber: OTHER_ACCOUNT,
      amountCents: 98_765,
      identification: 'PAY8R3L0Y',
      receiverName: 'Northwind Tools',
      traceSequence: 104,
    },
  ],
};
const input: WriteNachaFileInput = {
  originator: ORIGINATOR,
  createdAt: new Date('2026-11-27T14:05:00Z'),
  fileIdModifier: 'A',
  batches: [verification, { purpose: 'payments', effectiveOn: '2026-12-03', entries: [] }, payments],
  timeZone: 'America/New_York',
};

const linesOf = (text: string) => text.replace(/\n$/, '').split('\n');
const hash10 = (value: number) => String(value).padStart(10, '0');
const trace15 = (value: number) => String(value).padStart(15, '0');

describe('the NACHA file written for the bank', () => {
  const written = writeNachaFile(input);
  const { file, batches } = parser.from(written.text).data;

  it('is 94-character records in whole blocks of 10, padded with 9s', () => {
    const lines = linesOf(written.text);
    assert.ok(lines.every((line) => line.length === 94));
    assert.equal(lines.length, 20);
    assert.equal(lines.length % 10, 0);
    assert.deepEqual(lines.slice(11), Array<string>(9).fill('9'.repeat(94)));
    assert.equal(written.blockCount, 2);
    assert.equal(file.footer.blockCount, 2);
    assert.equal(written.sha256, createHash('sha256').update(written.text).digest('hex'));
  });

  it('heads the file with the bank, the lender and the creation time in the zone given', () => {
    assert.equal(file.destination, ' 021000021');
    assert.equal(file.origin, ' 123456789');
    assert.equal(file.destinationName, 'FIRST EXAMPLE BANK');
    assert.equal(file.originName, 'EXAMPLE LENDING LLC');
    assert.deepEqual([file.creationDate, file.creationTime, file.idModifier], ['261127', '0905', 'A']);
  });

  it('leaves the empty batch out and writes a CCD batch per purpose', () => {
    assert.equal(written.batchCount, 2);
    assert.equal(file.footer.batchCount, 2);
    assert.deepEqual(
      batches.map((b) => [b.serviceClassCode, b.entryClassCode, b.description, b.effectiveDate, b.num]),
      [
        [200, 'CCD', 'ACCTVERIFY', '261201', 1],
        [225, 'CCD', 'LOAN PYMT', '261202', 2],
      ],
    );
    for (const batch of batches) {
      assert.equal(batch.companyName, 'EXAMPLE LENDING');
      assert.equal(batch.companyId, '1123456789');
      assert.equal(batch.footer.companyId, '1123456789');
      assert.equal(batch.footer.serviceClassCode, batch.serviceClassCode);
      assert.equal(batch.originatingDFIIdentification, '02100002');
    }
  });

  it('writes the micro-entries: two credits under $1 and the debit of their sum', () => {
    const [micro] = batches;
    assert.deepEqual(
      micro?.entries.map((e) => [e.transactionCode, e.amount, e.dfiAccount, e.receivingCompanyName]),
      [
        ['22', 17, BORROWER_ACCOUNT, 'ACME CAFE SUPPLIES, IN'],
        ['22', 23, BORROWER_ACCOUNT, 'ACME CAFE SUPPLIES, IN'],
        ['27', 40, BORROWER_ACCOUNT, 'ACME CAFE SUPPLIES, IN'],
      ],
    );
    assert.deepEqual(micro?.footer, {
      ...micro?.footer,
      entryAndAddendaCount: 3,
      entryHash: 3 * 12104288,
      totalDebit: 40,
      totalCredit: 40,
    });
  });

  it('writes the instalments as debits, totalled and hashed per batch and for the file', () => {
    const [, instalments] = batches;
    assert.deepEqual(
      instalments?.entries.map((e) => [
        e.transactionCode,
        e.receivingDFIIdentification,
        e.checkDigit,
        e.amount,
      ]),
      [
        ['27', 12104288, 2, 98_765],
        ['27', 2100002, 1, 125_000],
      ],
    );
    assert.equal(hash10(instalments?.footer.entryHash ?? 0), '0014204290');
    assert.deepEqual(
      [
        instalments?.footer.entryAndAddendaCount,
        instalments?.footer.totalDebit,
        instalments?.footer.totalCredit,
      ],
      [2, 223_765, 0],
    );
    assert.deepEqual(
      [file.footer.entryAndAddendaCount, file.footer.totalDebit, file.footer.totalCredit],
      [5, 223_805, 40],
    );
    assert.equal(hash10(file.footer.entryHash), '0050517154');
    assert.deepEqual(
      [written.entryCount, written.entryHash, written.debitTotalCents, written.creditTotalCents],
      [5, '0050517154', 223_805, 40],
    );
  });

  it('gives each entry the ODFI trace of its sequence, ascending within each batch', () => {
    const parsed = batches.map((b) => b.entries.map((e) => trace15(e.traceNumber)));
    assert.deepEqual(parsed, [
      ['021000020000101', '021000020000102', '021000020000103'],
      ['021000020000104', '021000020000105'],
    ]);
    for (const traces of parsed) assert.deepEqual(traces, [...traces].sort());
    // In the order the entries were given, to store each against its payment.
    assert.deepEqual(written.traces, [
      '021000020000101',
      '021000020000102',
      '021000020000103',
      '021000020000105',
      '021000020000104',
    ]);
    assert.deepEqual(
      batches[1]?.entries.map((e) => [e.identificationNumber, e.addendaIndicator]),
      [
        ['PAY8R3L0Y', '0'],
        ['PAY7Q2K9X', '0'],
      ],
    );
  });

  it('ends its lines as the bank agreement says, and writes the same bytes again', () => {
    const crlf = writeNachaFile({ ...input, lineEnding: '\r\n' });
    assert.equal(crlf.text, written.text.replaceAll('\n', '\r\n'));
    assert.notEqual(crlf.sha256, written.sha256);
    assert.equal(writeNachaFile(input).sha256, written.sha256);
  });
});

describe('a NACHA file the bank would refuse', () => {
  const refused = (batch: Partial<NachaBatch> & Pick<NachaBatch, 'entries'>, why: RegExp) => {
    assert.throws(
      () => writeNachaFile({ ...input, batches: [{ ...payments, ...batch }] }),
      (error: Error) =>
        why.test(error.message) &&
        !error.message.includes(BORROWER_ACCOUNT) &&
        !error.message.includes(OTHER_ACCOUNT),
    );
  };
  const [first, second] = payments.entries as [NachaEntry, NachaEntry];

  it('is not written', () => {
    refused({ entries: [{ ...first, routingNumber: '021000022' }] }, /entry 1: the routing number/);
    refused({ entries: [{ ...first, accountNumber: `${BORROWER_ACCOUNT}-00000000` }] }, /account number/);
    refused({ entries: [first, { ...second, transactionCode: '22' }] }, /entry 2: .*debits only/);
    refused({ entries: [first, { ...second, traceSequence: 105 }] }, /used twice/);
    refused({ entries: [{ ...first, amountCents: 0 }] }, /amount/);
    refused({ effectiveOn: '2026-02-30', entries: [first] }, /effective date/);
    const micro = verification.entries;
    refused(
      { purpose: 'verification', entries: micro.map((e) => ({ ...e, amountCents: 100 })) },
      /micro-entry/,
    );
    assert.throws(() => writeNachaFile({ ...input, batches: [] }), /at least one entry/);
    assert.throws(() => writeNachaFile({ ...input, fileIdModifier: 'a' }), /file ID modifier/);
    const longName = { ...ORIGINATOR, companyName: 'Example Lending Company' };
    assert.throws(() => writeNachaFile({ ...input, originator: longName }), /company name/);
  });
});

describe("the bank's returns file", () => {
  const written = writeNachaFile(input);
  // The payments batch's traces, in the order its entries were given.
  const [firstTrace, secondTrace] = written.traces.slice(3);
  const returned = ({ transactionCode: _, traceSequence: __, ...entry }: NachaEntry) => entry;
  const returns = returnsFileFor(
    [
      { ...returned(payments.entries[0]!), trace: firstTrace!, returnCode: 'R01' },
      {
        ...returned(payments.entries[1]!),
        trace: secondTrace!,
        returnCode: 'R10',
        information: 'Not authorized',
      },
    ],
    ORIGINATOR,
  );
  const expected = [
    {
      originalTrace: '021000020000105',
      returnCode: 'R01',
      amountCents: 125_000,
      identification: 'PAY7Q2K9X',
      transactionCode: '26',
      information: '',
    },
    {
      originalTrace: '021000020000104',
      returnCode: 'R10',
      amountCents: 98_765,
      identification: 'PAY8R3L0Y',
      transactionCode: '26',
      information: 'NOT AUTHORIZED',
    },
  ];

  it('gives back each return with its original trace, code, amount and our reference', () => {
    // The independent parser reads it as a NACHA file too: a batch per returning bank.
    const parsed = parser.from(returns).data;
    assert.deepEqual(
      [parsed.batches.length, parsed.file.footer.entryAndAddendaCount, parsed.file.footer.totalDebit],
      [2, 4, 223_765],
    );
    assert.deepEqual(readReturnsFile(returns).returns, expected);
  });

  it('is read with CRLF line ends, or none', () => {
    assert.deepEqual(readReturnsFile(returns.replaceAll('\n', '\r\n')).returns, expected);
    assert.deepEqual(readReturnsFile(returns.replaceAll('\n', '')).returns, expected);
  });

  it('is refused when malformed, without quoting a line or an account number', () => {
    const lines = linesOf(returns);
    const entry = lines.findIndex((line) => line.startsWith('6'));
    const withLine = (at: number, line: string) => lines.map((l, i) => (i === at ? line : l)).join('\n');
    const malformed = [
      withLine(entry, lines[entry]!.slice(0, 93)),
      withLine(entry, lines[entry]!.replace('0000125000', '0000125001')),
      withLine(entry + 1, lines[entry + 1]!.replace('R01', 'X01')),
      lines.filter((line) => !line.startsWith('9')).join('\n'),
      lines.filter((line) => !line.startsWith('7')).join('\n'),
      `${BORROWER_ACCOUNT} is not a NACHA file`,
      '',
    ];
    for (const text of malformed) {
      assert.throws(
        () => readReturnsFile(text),
        (error: Error) =>
          /^The returns NACHA file is malformed: /.test(error.message) &&
          !/\d{5,}/.test(error.message) &&
          !error.message.includes(BORROWER_ACCOUNT),
      );
    }
  });
});
