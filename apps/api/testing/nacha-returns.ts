import type { Originator } from '../src/payments/nacha-file.js';

// A returns file as the lender's bank sends it back (design: payments.md section 5), written record by
// record: neither NACHA package writes return entries (code 26) or addenda 99. Each returning bank
// (the original RDFI) has its batch, whose header repeats the original's company name, ID, SEC code
// and description; each return is the original entry coming back to the ODFI, then its addenda 99.

export interface ReturnToWrite {
  /** The 15-digit trace of the entry we sent. */
  trace: string;
  returnCode: string;
  /** The receiver's bank (the original RDFI), 9 digits. */
  routingNumber: string;
  accountNumber: string;
  amountCents: number;
  identification: string;
  receiverName: string;
  /** `26` (returned checking debit) unless told. */
  transactionCode?: '21' | '26' | '31' | '36';
  information?: string;
}

export interface ReturnsFileOptions {
  /** The original batch's description. */
  description?: string;
  /** Effective date of the returns, YYMMDD. */
  effectiveOn?: string;
  /** File creation date and time, YYMMDD and HHMM. */
  createdOn?: string;
  createdAt?: string;
}

const alpha = (value: string, width: number) => value.toUpperCase().slice(0, width).padEnd(width, ' ');
const num = (value: number | string, width: number) => String(value).padStart(width, '0');

export function returnsFileFor(
  entries: ReturnToWrite[],
  originator: Originator,
  options: ReturnsFileOptions = {},
): string {
  const byBank = new Map<string, ReturnToWrite[]>();
  for (const entry of entries)
    byBank.set(entry.routingNumber, [...(byBank.get(entry.routingNumber) ?? []), entry]);
  const records = [
    '1' +
      '01' +
      originator.immediateOrigin +
      ` ${originator.immediateDestination}` +
      (options.createdOn ?? '261204') +
      (options.createdAt ?? '0615') +
      'A094101' +
      alpha(originator.immediateOriginName, 23) +
      alpha(originator.immediateDestinationName, 23) +
      ' '.repeat(8),
  ];
  const file = { records: 0, hash: 0, debits: 0, credits: 0 };
  let batchNumber = 0;
  let sequence = 0;
  for (const [rdfi, returns] of byBank) {
    batchNumber += 1;
    const rdfi8 = rdfi.slice(0, 8);
    records.push(
      '5200' +
        alpha(originator.companyName, 16) +
        ' '.repeat(20) +
        originator.companyId +
        'CCD' +
        alpha(options.description ?? 'LOAN PYMT', 10) +
        ' '.repeat(6) +
        (options.effectiveOn ?? '261202') +
        '   ' +
        '1' +
        rdfi8 +
        num(batchNumber, 7),
    );
    const batch = { records: 0, hash: 0, debits: 0, credits: 0 };
    for (const entry of returns) {
      sequence += 1;
      const code = entry.transactionCode ?? '26';
      const trace = rdfi8 + num(sequence, 7);
      // The return goes to the original ODFI: its routing number stands where the RDFI's did.
      records.push(
        '6' +
          code +
          originator.odfiRouting +
          alpha(entry.accountNumber, 17) +
          num(entry.amountCents, 10) +
          entry.identification.padEnd(15, ' ') +
          alpha(entry.receiverName, 22) +
          '  ' +
          '1' +
          trace,
      );
      records.push(
        '799' +
          entry.returnCode +
          entry.trace +
          ' '.repeat(6) +
          rdfi8 +
          alpha(entry.information ?? '', 44) +
          trace,
      );
      batch.records += 2;
      batch.hash += Number(originator.odfiRouting.slice(0, 8));
      if (Number(code[1]) >= 6) batch.debits += entry.amountCents;
      else batch.credits += entry.amountCents;
    }
    records.push(
      '8200' +
        num(batch.records, 6) +
        num(batch.hash % 10_000_000_000, 10) +
        num(batch.debits, 12) +
        num(batch.credits, 12) +
        originator.companyId +
        ' '.repeat(25) +
        rdfi8 +
        num(batchNumber, 7),
    );
    for (const key of ['records', 'hash', 'debits', 'credits'] as const) file[key] += batch[key];
  }
  const lines = records.length + 1;
  records.push(
    '9' +
      num(batchNumber, 6) +
      num(Math.ceil(lines / 10), 6) +
      num(file.records, 8) +
      num(file.hash % 10_000_000_000, 10) +
      num(file.debits, 12) +
      num(file.credits, 12) +
      ' '.repeat(39),
  );
  while (records.length % 10 !== 0) records.push('9'.repeat(94));
  return records.join('\n') + '\n';
}
