import { createHash } from 'node:crypto';
import { isValidRoutingNumber } from '@customer-core/contracts';
import { createRequire } from 'node:module';
import { malformed, readNachaRecords, recordsOf } from './nacha-records.js';

// The bundled payments adapter's NACHA files (design: payments.md sections 1, 3, 5 and 7): the file of
// CCD entries written for the bank, and the bank's returns file read back. Account numbers and file
// lines never go into an error message: a message names the batch, entry or line by its position.

/** The lender as its bank knows it: configuration, never typed in by a borrower. */
export interface Originator {
  /** 9-digit routing number of the lender's bank (the receiving point). */
  immediateDestination: string;
  immediateDestinationName: string;
  /** 10 characters the bank assigns: `1234567890` or ` 123456789`. */
  immediateOrigin: string;
  immediateOriginName: string;
  /** Shown on the borrower's statement: 16 characters at most. */
  companyName: string;
  /** 10 digits the bank agreed, usually `1` + EIN. */
  companyId: string;
  /** 9-digit routing number of the ODFI: its first 8 digits begin every trace number. */
  odfiRouting: string;
}

export interface NachaEntry {
  /** Checking credit / debit, savings credit / debit. */
  transactionCode: '22' | '27' | '32' | '37';
  /** 9-digit routing number of the receiver's bank. */
  routingNumber: string;
  /** Up to 17 letters, digits or hyphens. */
  accountNumber: string;
  amountCents: number;
  /** Our reference (the payment's short id), 15 characters at most: the bank sends it back on a return. */
  identification: string;
  /** The business's name, cut to 22 characters. */
  receiverName: string;
  /** From the database's sequence: the trace is the ODFI's first 8 digits and these 7. */
  traceSequence: number;
}

export interface NachaBatch {
  /** Micro-entries (service class 200, `ACCTVERIFY`) or instalments (225, debits only, `LOAN PYMT`). */
  purpose: 'verification' | 'payments';
  /** Effective entry date, YYYY-MM-DD. */
  effectiveOn: string;
  entries: NachaEntry[];
}

export interface WrittenNachaFile {
  /** 94-character records, padded with 9s to a multiple of 10 lines. */
  text: string;
  entryCount: number;
  /** Rightmost 10 digits of the sum of the entries' 8-digit RDFI ids. */
  entryHash: string;
  debitTotalCents: number;
  creditTotalCents: number;
  blockCount: number;
  batchCount: number;
  /** The 15-digit trace of each entry, batch by batch, each batch's in the order its entries were given. */
  traces: string[];
  sha256: string;
}

export interface WriteNachaFileInput {
  originator: Originator;
  createdAt: Date;
  /** `A`-`Z` or `0`-`9`, unique among the files of the creation date. */
  fileIdModifier: string;
  batches: NachaBatch[];
  /** IANA zone the creation date and time are written in. */
  timeZone: string;
  /** As the bank agreement says; `\n` unless told. */
  lineEnding?: '\n' | '\r\n';
}

export interface ReturnedEntry {
  /** The trace of the entry we sent (addenda 99, 07-21). */
  originalTrace: string;
  returnCode: string;
  amountCents: number;
  /** Our reference (entry 40-54) as it came back. */
  identification: string;
  /** `26` for a returned checking debit. */
  transactionCode: string;
  /** Addenda 99 36-79, trimmed. */
  information: string;
}

// The parts of nach2's API used here (it ships no types). Amounts go in as dollars, as it expects.
interface Nach2Batch {
  addEntry(entry: object): void;
}
interface Nach2File {
  addBatch(batch: Nach2Batch): void;
  generateFile(done: (text: string) => void): void;
}
interface Nach2 {
  File: new (options: Record<string, unknown>) => Nach2File;
  Batch: new (options: Record<string, unknown>) => Nach2Batch;
  Entry: new (options: Record<string, unknown>) => object;
}
// Loaded on the first file written: with lodash, async and moment it is some 900 KB of source (2 MB of
// heap, 8 MB of RSS in a bare process) that a server writing no file would carry for nothing.
let loaded: Nach2 | undefined;
const nach2Library = () => (loaded ??= createRequire(import.meta.url)('nach2') as Nach2);

const MAX_AMOUNT_CENTS = 9_999_999_999;
const PURPOSES = {
  verification: { serviceClassCode: '200', description: 'ACCTVERIFY', debitsOnly: false },
  payments: { serviceClassCode: '225', description: 'LOAN PYMT', debitsOnly: true },
} as const;
const DEBIT_CODES = new Set(['27', '37']);

/** Writes the bank's file; throws, naming the batch and entry, on a value the bank would refuse. */
export function writeNachaFile(input: WriteNachaFileInput): WrittenNachaFile {
  const { originator } = input;
  checkOriginator(originator);
  if (!/^[A-Z0-9]$/.test(input.fileIdModifier)) throw new Error('The file ID modifier is not A-Z or 0-9.');
  const seen = new Set<number>();
  input.batches.forEach((batch, b) => {
    if (batch.entries.length > 0) checkBatch(batch, b, seen);
  });
  const batches = input.batches.filter((batch) => batch.entries.length > 0);
  if (batches.length === 0) throw new Error('A NACHA file needs at least one entry.');
  const odfi8 = originator.odfiRouting.slice(0, 8);

  const { date, time } = creationStamp(input.createdAt, input.timeZone);
  const nach2 = nach2Library();
  const file = libraryCall(() => {
    const file = new nach2.File({
      immediateDestination: originator.immediateDestination,
      // The library pads the origin with a leading space itself.
      immediateOrigin: originator.immediateOrigin.trim(),
      immediateDestinationName: statementText(originator.immediateDestinationName, 23),
      immediateOriginName: statementText(originator.immediateOriginName, 23),
      fileCreationDate: date,
      fileCreationTime: time,
      fileIdModifier: input.fileIdModifier,
      // Blank reference code; the library takes spaces, not an empty value, for "none".
      referenceCode: ' ',
      batchSequenceNumber: 1,
    });
    for (const batch of batches) {
      const purpose = PURPOSES[batch.purpose];
      const [year, month, day] = batch.effectiveOn.split('-').map(Number) as [number, number, number];
      const nachBatch = new nach2.Batch({
        serviceClassCode: purpose.serviceClassCode,
        companyName: statementText(originator.companyName, 16),
        standardEntryClassCode: 'CCD',
        companyIdentification: originator.companyId,
        companyEntryDescription: purpose.description,
        companyDescriptiveDate: ' ',
        // A local date: the library formats it with local getters, so the day stays the one given.
        effectiveEntryDate: new Date(year, month - 1, day),
        originatingDFI: originator.odfiRouting,
      });
      // Traces ascend within a batch, or the operator rejects the file.
      for (const entry of [...batch.entries].sort((x, y) => x.traceSequence - y.traceSequence)) {
        nachBatch.addEntry(
          new nach2.Entry({
            transactionCode: entry.transactionCode,
            receivingDFI: entry.routingNumber,
            DFIAccount: entry.accountNumber,
            amount: (entry.amountCents / 100).toFixed(2),
            idNumber: entry.identification.trim(),
            individualName: statementText(entry.receiverName, 22),
            discretionaryData: '  ',
            traceNumber: traceOf(odfi8, entry.traceSequence),
          }),
        );
      }
      file.addBatch(nachBatch);
    }
    return file;
  });
  let generated: string | undefined;
  libraryCall(() => file.generateFile((text) => (generated = text)));
  if (generated === undefined) throw new Error('The NACHA library did not write the file.');

  const lineEnding = input.lineEnding ?? '\n';
  const records = generated.split(/\r?\n/);
  const totals = totalsOf(batches);
  checkBalanced(records, totals, batches.length);
  const text = records.join(lineEnding) + lineEnding;
  return {
    text,
    ...totals,
    blockCount: records.length / 10,
    batchCount: batches.length,
    traces: batches.flatMap((batch) => batch.entries.map((entry) => traceOf(odfi8, entry.traceSequence))),
    sha256: createHash('sha256').update(text).digest('hex'),
  };
}

function checkOriginator(originator: Originator): void {
  if (!isValidRoutingNumber(originator.immediateDestination))
    throw new Error('The immediate destination is not a valid routing number.');
  if (!isValidRoutingNumber(originator.odfiRouting)) throw new Error('The ODFI routing number is not valid.');
  if (!/^(\d{10}| \d{9})$/.test(originator.immediateOrigin))
    throw new Error('The immediate origin is not 10 digits, or a space and 9 digits.');
  if (!/^\d{10}$/.test(originator.companyId)) throw new Error('The company ID is not 10 digits.');
  // Configured names are not cut: the company name is what the borrower reads on the statement.
  for (const [name, value, width] of [
    ['company name', originator.companyName, 16],
    ['immediate destination name', originator.immediateDestinationName, 23],
    ['immediate origin name', originator.immediateOriginName, 23],
  ] as const) {
    const text = statementText(value);
    if (text === '' || text.length > width)
      throw new Error(`The ${name} is blank or over ${width} characters.`);
  }
}

function checkBatch(batch: NachaBatch, index: number, seen: Set<number>): void {
  const where = `Batch ${index + 1} (${batch.purpose})`;
  if (!(batch.purpose in PURPOSES)) throw new Error(`${where}: unknown purpose.`);
  if (!isCalendarDate(batch.effectiveOn)) throw new Error(`${where}: the effective date is not YYYY-MM-DD.`);
  batch.entries.forEach((entry, e) => {
    const at = `${where}, entry ${e + 1}`;
    if (!['22', '27', '32', '37'].includes(entry.transactionCode))
      throw new Error(`${at}: the transaction code is not 22, 27, 32 or 37.`);
    if (PURPOSES[batch.purpose].debitsOnly && !DEBIT_CODES.has(entry.transactionCode))
      throw new Error(`${at}: a payments batch holds debits only.`);
    if (!isValidRoutingNumber(entry.routingNumber))
      throw new Error(`${at}: the routing number is not valid.`);
    if (!/^[0-9A-Za-z-]{1,17}$/.test(entry.accountNumber))
      throw new Error(`${at}: the account number is not 1 to 17 letters, digits or hyphens.`);
    if (!Number.isInteger(entry.amountCents) || entry.amountCents < 1 || entry.amountCents > MAX_AMOUNT_CENTS)
      throw new Error(`${at}: the amount is not a whole number of cents from 1 to the field's maximum.`);
    if (!/^[\x20-\x7e]{1,15}$/.test(entry.identification.trim()))
      throw new Error(`${at}: the identification is not 1 to 15 printable characters.`);
    if (statementText(entry.receiverName, 22) === '') throw new Error(`${at}: the receiver's name is blank.`);
    if (!Number.isInteger(entry.traceSequence) || entry.traceSequence < 1 || entry.traceSequence > 9_999_999)
      throw new Error(`${at}: the trace sequence is not a whole number from 1 to 9,999,999.`);
    if (seen.has(entry.traceSequence))
      throw new Error(`${at}: the trace sequence is used twice in the file.`);
    seen.add(entry.traceSequence);
  });
  if (batch.purpose === 'verification') {
    // Micro-entries: each credit under $1, and the debits never more than the credits.
    const { debitTotalCents, creditTotalCents } = totalsOf([batch]);
    const credits = batch.entries.filter((entry) => !DEBIT_CODES.has(entry.transactionCode));
    if (credits.some((entry) => entry.amountCents >= 100) || debitTotalCents > creditTotalCents)
      throw new Error(`${where}: micro-entry credits must be under $1 each and cover the debits.`);
  }
}

/** Upper case printable ASCII, as NACHA's names are: accents dropped, anything else a space, cut to `width`. */
function statementText(value: string, width = Infinity): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^\x20-\x7e]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, width)
    .trimEnd();
}

function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

const traceOf = (odfi8: string, sequence: number) => odfi8 + String(sequence).padStart(7, '0');

/** YYMMDD and HHMM of `at` in `timeZone`. */
function creationStamp(at: Date, timeZone: string): { date: string; time: string } {
  if (Number.isNaN(at.getTime())) throw new Error('The creation time is not a valid date.');
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: '2-digit',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return { date: part('year') + part('month') + part('day'), time: part('hour') + part('minute') };
}

/** Runs a call into the library; its messages can quote values, so only its error's name is kept. */
function libraryCall<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    const name = error instanceof Error ? error.name : 'unknown error';
    // eslint-disable-next-line preserve-caught-error -- the cause's message could carry entry values
    throw new Error(`The NACHA library refused the file: ${name}.`);
  }
}

interface Totals {
  entryCount: number;
  entryHash: string;
  debitTotalCents: number;
  creditTotalCents: number;
}

function totalsOf(batches: NachaBatch[]): Totals {
  const entries = batches.flatMap((batch) => batch.entries);
  const debits = entries.filter((entry) => DEBIT_CODES.has(entry.transactionCode));
  const credits = entries.filter((entry) => !DEBIT_CODES.has(entry.transactionCode));
  const sum = (list: NachaEntry[]) => list.reduce((total, entry) => total + entry.amountCents, 0);
  const hash = entries.reduce((total, entry) => total + Number(entry.routingNumber.slice(0, 8)), 0);
  return {
    entryCount: entries.length,
    entryHash: String(hash).padStart(10, '0').slice(-10),
    debitTotalCents: sum(debits),
    creditTotalCents: sum(credits),
  };
}

/**
 * The written file read back against our own sums in whole cents (the library adds dollars in floating
 * point): record length, blocking, each batch's control, the file control's counts, hash and totals.
 * The operator refuses a file out of balance, so it is refused here first.
 */
function checkBalanced(records: string[], totals: Totals, batchCount: number): void {
  const control = records.find((record) => record.startsWith('9') && !/^9+$/.test(record)) ?? '';
  const expected = [
    '9',
    String(batchCount).padStart(6, '0'),
    String(records.length / 10).padStart(6, '0'),
    String(totals.entryCount).padStart(8, '0'),
    totals.entryHash,
    String(totals.debitTotalCents).padStart(12, '0'),
    String(totals.creditTotalCents).padStart(12, '0'),
  ].join('');
  let balanced = records.length % 10 === 0 && control.startsWith(expected);
  try {
    readNachaRecords(records, 'written');
  } catch {
    balanced = false;
  }
  if (!balanced) throw new Error('The NACHA file did not balance.');
}

/**
 * The bank's returns file: each entry with an addenda 99. Change notices (addenda 98) are not returns
 * and are passed over. Throws on a file that is cut short, out of balance or not NACHA.
 */
export function readReturnsFile(text: string): { returns: ReturnedEntry[] } {
  const returns: ReturnedEntry[] = [];
  for (const { record, line, addenda } of readNachaRecords(recordsOf(text), 'returns')) {
    const at = `the entry on line ${line}`;
    const [answer] = addenda;
    if (answer === undefined || addenda.length > 1) return malformed('returns', `${at} has not one addenda`);
    if (answer.slice(1, 3) === '98') continue;
    const returnCode = answer.slice(3, 6);
    const originalTrace = answer.slice(6, 21);
    if (answer.slice(1, 3) !== '99' || !/^R\d\d$/.test(returnCode) || !/^\d{15}$/.test(originalTrace))
      malformed('returns', `${at} has no return addenda with a code and original trace`);
    returns.push({
      originalTrace,
      returnCode,
      amountCents: Number(record.slice(29, 39)),
      identification: record.slice(39, 54).trim(),
      transactionCode: record.slice(1, 3),
      information: answer.slice(35, 79).trim(),
    });
  }
  return { returns };
}
