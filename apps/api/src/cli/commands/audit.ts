import {
  AuditQuerySchema,
  auditCsvHeader,
  auditCsvRow,
  auditEndpoints,
  auditJsonLine,
  DEFAULT_AUDIT_PAGE,
  MAX_AUDIT_PAGE,
  type AuditRecordView,
} from '@customer-core/contracts';
import { failure, usageError } from '../cli-error.js';
import { table, text, validated, type Command } from '../command.js';

const FORMATS = ['table', 'csv', 'jsonl'] as const;
export const audit: Command = {
  name: 'audit',
  summary: 'Search the audit trail, export it as CSV or JSON lines, or check its chain',
  help: `Usage: npm run cli -- audit [filters] [--oldest-first] [--limit <n>] [--format table|csv|jsonl]
       npm run cli -- audit --verify

Lists the audit trail, newest first: every operator call (by its service credential's name, a read
too, a refusal too) and every change a borrower made to their own account, each with what it named,
its outcome, the reason given (--reason) and where it came from. With --format csv or jsonl, every
record that matches (or --limit of them), for a spreadsheet or a SIEM.

--verify checks the chain the records form, each naming the hash of the one before: it says where a
record was changed, removed or added in the database, and exits 1 when it is broken.

Filters:
  --actor <actor>       e.g. service:operator, borrower:<id>
  --target <target>     e.g. email:dana@example.com, reference:LN-204518, borrower:<id>
  --action <action>     e.g. "PATCH /api/operator/loans/:reference"
  --since <time>        From this time (ISO 8601 with its offset, e.g. 2026-01-01T00:00:00Z)
  --until <time>        Before this time

Options:
  --oldest-first        Oldest records first
  --limit <n>           At most this many (default: ${DEFAULT_AUDIT_PAGE} in a table, all in an export)
  --format <format>     table (default), csv or jsonl
  --verify              Check the chain instead of listing`,
  options: {
    actor: { type: 'string' },
    target: { type: 'string' },
    action: { type: 'string' },
    since: { type: 'string' },
    until: { type: 'string' },
    'oldest-first': { type: 'boolean' },
    limit: { type: 'string' },
    format: { type: 'string' },
    verify: { type: 'boolean' },
  },
  async run(values, { portal, print }) {
    if (values.verify) {
      const check = await portal.call(auditEndpoints.verification, {});
      if (!check.intact)
        throw failure(
          `The audit trail is broken: record ${check.problem!.seq} ${check.problem!.what}. ` +
            `${check.records === 1 ? '1 record before it is' : `${check.records} records before it are`} intact.`,
        );
      return print(
        check.records === 0
          ? 'The audit trail is intact: it has no records yet.'
          : `The audit trail is intact: ${check.records} records, ${check.firstSeq} to ${check.lastSeq}.`,
      );
    }
    const format = text(values, 'format') ?? 'table';
    if (!(FORMATS as readonly string[]).includes(format))
      throw usageError(`--format is one of ${FORMATS.join(', ')}. See: npm run cli -- audit --help`);
    const limitText = text(values, 'limit');
    const limit =
      limitText === undefined ? (format === 'table' ? DEFAULT_AUDIT_PAGE : Infinity) : Number(limitText);
    if (!Number.isInteger(limit) && limit !== Infinity)
      throw usageError('--limit is a whole number, e.g. 500.');
    if (limit < 1) throw usageError('--limit is a whole number, e.g. 500.');
    const search = validated(
      AuditQuerySchema.omit({ after: true, limit: true }),
      {
        actor: text(values, 'actor'),
        target: text(values, 'target'),
        action: text(values, 'action'),
        since: text(values, 'since'),
        until: text(values, 'until'),
        order: values['oldest-first'] ? 'oldest' : 'newest',
      },
      { actor: '--actor', target: '--target', action: '--action', since: '--since', until: '--until' },
    );
    const query = {
      ...search,
      since: search.since?.toISOString(),
      until: search.until?.toISOString(),
    };

    const records: AuditRecordView[] = [];
    const emit =
      format === 'jsonl'
        ? (record: AuditRecordView) => print(auditJsonLine(record))
        : format === 'csv'
          ? (record: AuditRecordView) => print(auditCsvRow(record))
          : (record: AuditRecordView) => void records.push(record);
    if (format === 'csv') print(auditCsvHeader());
    let after: number | null | undefined;
    let left = limit;
    do {
      const page = await portal.call(auditEndpoints.records, {
        query: { ...query, after: after ?? undefined, limit: Math.min(MAX_AUDIT_PAGE, left) },
      });
      for (const record of page.records) emit(record);
      left -= page.records.length;
      after = page.next;
    } while (after !== null && left > 0);
    if (format !== 'table') return;

    if (records.length === 0) return print('No audit record matches.');
    const rows = records.map((r) => [
      String(r.seq),
      r.recordedAt.slice(0, 19).replace('T', ' '),
      r.actor,
      r.action,
      r.target ?? '-',
      String(r.outcome),
      r.reason ?? '-',
    ]);
    for (const line of table(['#', 'WHEN (UTC)', 'ACTOR', 'ACTION', 'TARGET', 'OUTCOME', 'REASON'], rows))
      print(line);
    print('');
    print(
      `${records.length} record${records.length === 1 ? '' : 's'}${after === null ? '' : ' (more with --limit)'}.`,
    );
  },
};
