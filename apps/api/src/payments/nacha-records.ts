// A NACHA file's records read back and checked: its structure and every control record against the
// entries it holds (design: payments.md section 1). Messages name lines by number and never quote
// them: a line holds an account number.

export const RECORD_LENGTH = 94;

/** An entry record as read, its 1-based line and the addenda records that follow it. */
export interface ReadEntry {
  record: string;
  line: number;
  addenda: string[];
}

/** Throws the error of a malformed `file` ('returns', 'written'), saying `why` without its content. */
export function malformed(file: string, why: string): never {
  throw new Error(`The ${file} NACHA file is malformed: ${why}.`);
}

/** The records of a file's text: one a line, or cut every 94 characters when it has no line breaks. */
export function recordsOf(text: string): string[] {
  const lines = text.replace(/(\r?\n)+$/, '').split(/\r?\n/);
  const [only] = lines;
  if (lines.length === 1 && only !== undefined && only.length > RECORD_LENGTH) {
    return Array.from({ length: Math.ceil(only.length / RECORD_LENGTH) }, (_, i) =>
      only.slice(i * RECORD_LENGTH, (i + 1) * RECORD_LENGTH),
    );
  }
  return lines;
}

interface Sums {
  records: number;
  hash: number;
  debits: number;
  credits: number;
}
const noSums = (): Sums => ({ records: 0, hash: 0, debits: 0, credits: 0 });

/** The entries of a file whose structure, batch controls and file control all hold; throws otherwise. */
export function readNachaRecords(records: string[], file: string): ReadEntry[] {
  const fail = (why: string) => malformed(file, why);
  const entries: ReadEntry[] = [];
  const total = noSums();
  let batch: Sums | null = null;
  let batches = 0;
  let previous = '';
  let closed = false;
  if (!records[0]?.startsWith('1')) fail('it does not begin with a file header');
  records.forEach((record, i) => {
    const at = `line ${i + 1}`;
    const type = record[0] ?? '';
    if (record.length !== RECORD_LENGTH) fail(`${at} is not ${RECORD_LENGTH} characters long`);
    if (closed) {
      if (!/^9+$/.test(record)) fail(`${at} follows the file control`);
    } else if (i > 0 && type === '5') {
      if (batch) fail(`${at} opens a batch inside another`);
      batch = noSums();
    } else if (type === '6') {
      if (!batch) return fail(`${at} is an entry outside a batch`);
      const code = record.slice(1, 3);
      if (!/^[23][1-46-9]$/.test(code)) fail(`${at} has an unknown transaction code`);
      const amount = numeric(record, 30, 39) ?? fail(`${at} has no amount`);
      batch.records += 1;
      batch.hash += numeric(record, 4, 11) ?? fail(`${at} has no RDFI identification`);
      // Codes ending 1-4 are credits (a returned credit's too), 6-9 debits.
      if (Number(code[1]) >= 6) batch.debits += amount;
      else batch.credits += amount;
      entries.push({ record, line: i + 1, addenda: [] });
    } else if (type === '7') {
      const entry = entries.at(-1);
      if (!batch || !entry || (previous !== '6' && previous !== '7'))
        return fail(`${at} is an addenda without an entry`);
      batch.records += 1;
      entry.addenda.push(record);
    } else if (type === '8') {
      if (!batch) return fail(`${at} closes no batch`);
      if (!controlMatches(record, 5, 10, batch)) fail(`${at} does not match its batch`);
      total.records += batch.records;
      total.hash += batch.hash;
      total.debits += batch.debits;
      total.credits += batch.credits;
      batches += 1;
      batch = null;
    } else if (type === '9') {
      if (batch) fail(`${at} closes the file inside a batch`);
      if (numeric(record, 2, 7) !== batches || !controlMatches(record, 14, 21, total))
        fail(`${at} does not match the file`);
      closed = true;
    } else if (i > 0) {
      fail(`${at} has an unknown record type`);
    }
    previous = type;
  });
  if (!closed) fail('it has no file control');
  return entries;
}

/** A numeric field by its 1-based NACHA positions; null when it is not all digits. */
function numeric(record: string, from: number, to: number): number | null {
  const value = record.slice(from - 1, to);
  return /^\d+$/.test(value) ? Number(value) : null;
}

/** Whether a control record (its count at `from`-`to`, then hash, debits, credits) matches the sums. */
function controlMatches(record: string, from: number, to: number, sums: Sums): boolean {
  const expected =
    String(sums.records).padStart(to - from + 1, '0') +
    String(sums.hash % 10_000_000_000).padStart(10, '0') +
    String(sums.debits).padStart(12, '0') +
    String(sums.credits).padStart(12, '0');
  return record.slice(from - 1, to + 34) === expected;
}
