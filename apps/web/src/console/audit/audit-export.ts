import type { AuditRecordView } from '@customer-core/contracts';

// The audit records shown, as files built in the browser: CSV for a spreadsheet, JSON lines for tools.
// Column names and values stay as the API gives them (no words to translate): the files are records.

const COLUMNS = [
  'seq',
  'recordedAt',
  'actor',
  'role',
  'action',
  'target',
  'outcome',
  'reason',
  'clientAddress',
  'requestId',
  'request',
  'before',
  'after',
] as const satisfies readonly (keyof AuditRecordView)[];

/**
 * What a spreadsheet would take for a formula at the start of a cell (=, +, -, @, their full-width
 * forms, a tab or a carriage return): such a cell is written with an apostrophe before it, so it is
 * read as text (OWASP's "CSV injection").
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** One value as a CSV cell: text neutralised against formulas, quoted where it needs to be (RFC 4180). */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The records as CSV: a header row, then one row per record, lines ended with CRLF. */
export function auditCsv(records: readonly AuditRecordView[]): string {
  const rows = [
    COLUMNS.join(','),
    ...records.map((record) => COLUMNS.map((c) => csvCell(record[c])).join(',')),
  ];
  return `${rows.join('\r\n')}\r\n`;
}

/** The records as JSON lines: each record as the API gave it, one per line. */
export function auditJsonLines(records: readonly AuditRecordView[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join('');
}
