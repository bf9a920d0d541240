import type { AuditRecordView } from './audit.js';

// The audit trail as files, the same from the CLI (`audit --format csv|jsonl`) and the console: CSV
// for a spreadsheet, JSON lines for a SIEM. Column names and values stay as the API gives them.

export const AUDIT_CSV_COLUMNS = [
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
 * read as text (OWASP's "CSV injection"); an audit record's values came from callers.
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

/** The header row of an audit CSV. */
export const auditCsvHeader = () => AUDIT_CSV_COLUMNS.join(',');

/** One record as a row of an audit CSV. */
export const auditCsvRow = (record: AuditRecordView) =>
  AUDIT_CSV_COLUMNS.map((column) => csvCell(record[column])).join(',');

/** One record as a line of JSON lines (without its line end). */
export const auditJsonLine = (record: AuditRecordView) => JSON.stringify(record);
