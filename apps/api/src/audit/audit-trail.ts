import type { FastifyBaseLogger } from 'fastify';
import { chainHash, type AuditEntry, type AuditRecord } from './audit-record.js';
import type { AuditRepository, AuditRow, AuditSearch } from './audit-repository.js';

/** What the chain's check found: intact, or the first record where it breaks and how. */
export interface AuditChainCheck {
  intact: boolean;
  /** Records checked, from the first kept (after the retention purge) to the last. */
  records: number;
  firstSeq: number | null;
  lastSeq: number | null;
  problem: { seq: number; what: string } | null;
}

/** Rows read per statement while checking the chain. */
const CHECK_BATCH = 1000;

/** The audit trail: records appended, searched, and the chain they form checked end to end. */
export function auditTrail(
  repository: AuditRepository,
  log: FastifyBaseLogger,
  forwarders: ReadonlyArray<(record: AuditRecord) => Promise<void>> = [],
) {
  return {
    /**
     * Appends a record, then sends its copies (audit-forwarding.ts). A record that cannot be written
     * is an operator's problem, not the caller's: logged as an error (without the request's fields),
     * and the call it describes goes on.
     */
    async record(entry: AuditEntry): Promise<AuditRecord | null> {
      try {
        const record = await repository.append(entry);
        await Promise.all(
          forwarders.map((forward) =>
            forward(record).catch((error: unknown) =>
              log.error(
                { error: { message: (error as Error).message }, seq: record.seq },
                'audit record not forwarded',
              ),
            ),
          ),
        );
        return record;
      } catch (error) {
        // The error's message and code alone: the driver's error carries the statement's parameters.
        const { message, code } = error as { message?: string; code?: string };
        log.error(
          { error: { message, code }, actor: entry.actor, action: entry.action, requestId: entry.requestId },
          'audit record not written',
        );
        return null;
      }
    },

    search: (search: AuditSearch): Promise<AuditRecord[]> => repository.search(search),

    /**
     * Reads the chain in order and checks each record: numbered right after the one before, naming
     * that one's hash, its own hash matching its entry, its searched columns matching the entry; and
     * the chain's head naming the last record. An edit made in the database, or a record removed (but
     * by the retention purge, from the start), is found here. A record put in ahead of the chain takes
     * the number the next append needs: that append fails, and is logged.
     */
    async verify(): Promise<AuditChainCheck> {
      const head = await repository.head();
      let expected = head.purgedThrough + 1;
      let previousHash = head.purgedHash;
      let records = 0;
      let firstSeq: number | null = null;
      const broken = (seq: number, what: string): AuditChainCheck => ({
        intact: false,
        records,
        firstSeq,
        lastSeq: expected - 1 > head.purgedThrough ? expected - 1 : null,
        problem: { seq, what },
      });
      // Up to the head as read: records appended while the check runs are the next check's.
      for (let after = head.purgedThrough; ;) {
        const rows = await repository.rows(after, head.seq, CHECK_BATCH);
        for (const row of rows) {
          if (row.seq !== expected) return broken(expected, 'is missing');
          if (row.prevHash !== previousHash)
            return broken(row.seq, 'does not name the hash of the record before it');
          if (chainHash(row.prevHash, row.entry) !== row.hash || !columnsMatch(row))
            return broken(row.seq, 'was changed after it was recorded');
          firstSeq ??= row.seq;
          previousHash = row.hash;
          expected += 1;
          records += 1;
        }
        if (rows.length < CHECK_BATCH) break;
        after = rows.at(-1)!.seq;
      }
      if (head.seq > expected - 1) return broken(expected, 'is missing');
      if (head.hash !== previousHash) return broken(head.seq, 'does not match the head of the chain');
      return { intact: true, records, firstSeq, lastSeq: records > 0 ? expected - 1 : null, problem: null };
    },

    /** Removes the records older than the retention (maintenance), from the chain's start. */
    purgeOlderThan: (retentionDays: number): Promise<number> => repository.purgeOlderThan(retentionDays),
  };
}

export type AuditTrail = ReturnType<typeof auditTrail>;
export type { AuditValue } from './audit-record.js';

/** Whether the columns a search reads say what the hashed entry says. */
function columnsMatch(row: AuditRow): boolean {
  let entry: AuditRecord;
  try {
    entry = JSON.parse(row.entry) as AuditRecord;
  } catch {
    return false;
  }
  return (
    entry.seq === row.seq &&
    entry.actor === row.actor &&
    entry.action === row.action &&
    entry.target === row.target &&
    Date.parse(entry.recordedAt) === row.recordedAt.getTime()
  );
}
