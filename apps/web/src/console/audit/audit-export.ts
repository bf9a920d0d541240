import { auditCsvHeader, auditCsvRow, auditJsonLine, type AuditRecordView } from '@customer-core/contracts';

// The audit records shown, as files built in the browser: CSV for a spreadsheet, JSON lines for tools.
// Rows and lines as the CLI writes them (contracts' audit-export.ts): the files are records.

/** The records as CSV: a header row, then one row per record, lines ended with CRLF. */
export function auditCsv(records: readonly AuditRecordView[]): string {
  const rows = [auditCsvHeader(), ...records.map(auditCsvRow)];
  return `${rows.join('\r\n')}\r\n`;
}

/** The records as JSON lines: each record as the API gave it, one per line. */
export function auditJsonLines(records: readonly AuditRecordView[]): string {
  return records.map((record) => `${auditJsonLine(record)}\n`).join('');
}
