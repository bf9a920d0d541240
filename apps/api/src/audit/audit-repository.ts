import { sql, type Kysely } from 'kysely';
import type { ApiDatabase } from '../db/schema.js';
import { canonicalJson, chainHash, type AuditEntry, type AuditRecord } from './audit-record.js';

/** What the first record names as the hash before it. */
const GENESIS_HASH = '0'.repeat(64);

/** Which records a search returns, newest or oldest first, after the cursor (a seq) of the page before. */
export interface AuditSearch {
  actor?: string | undefined;
  action?: string | undefined;
  target?: string | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
  order: 'newest' | 'oldest';
  after?: number | undefined;
  limit: number;
}

/** A stored row as the chain's check reads it: the entry as hashed and the columns copied from it. */
export interface AuditRow {
  seq: number;
  recordedAt: Date;
  actor: string;
  action: string;
  target: string | null;
  entry: string;
  prevHash: string;
  hash: string;
}

/** The SQL of the audit trail (audit_record, audit_chain). */
export function auditRepository(db: Kysely<ApiDatabase>) {
  return {
    /**
     * Appends a record at the chain's head. The head's row is locked for the transaction, so appends
     * from every instance are numbered one after another, without a gap, each hashing the one before.
     */
    append(entry: AuditEntry, now = new Date()): Promise<AuditRecord> {
      return db.transaction().execute(async (trx) => {
        const lockHead = () =>
          trx
            .selectFrom('audit_chain')
            .select(['seq', 'hash'])
            .where('id', '=', 1)
            .forUpdate()
            .executeTakeFirst();
        let head = await lockHead();
        if (!head) {
          // The very first record: the chain begins (once, whoever else begins it at the same time).
          await trx
            .insertInto('audit_chain')
            .values({ id: 1, seq: 0, hash: GENESIS_HASH, purged_through: 0, purged_hash: GENESIS_HASH })
            .onConflict((conflict) => conflict.column('id').doNothing())
            .execute();
          head = (await lockHead())!;
        }
        const record: AuditRecord = { ...entry, seq: Number(head.seq) + 1, recordedAt: now.toISOString() };
        const json = canonicalJson(record);
        const hash = chainHash(head.hash, json);
        await trx
          .insertInto('audit_record')
          .values({
            seq: record.seq,
            recorded_at: new Date(record.recordedAt),
            actor: record.actor,
            action: record.action,
            target: record.target,
            entry: json,
            prev_hash: head.hash,
            hash,
          })
          .execute();
        await trx.updateTable('audit_chain').set({ seq: record.seq, hash }).where('id', '=', 1).execute();
        return record;
      });
    },

    /** One page of records matching the search. */
    async search(search: AuditSearch): Promise<AuditRecord[]> {
      let query = db.selectFrom('audit_record').select('entry');
      if (search.actor !== undefined) query = query.where('actor', '=', search.actor);
      if (search.action !== undefined) query = query.where('action', '=', search.action);
      if (search.target !== undefined) query = query.where('target', '=', search.target);
      if (search.since !== undefined) query = query.where('recorded_at', '>=', search.since);
      if (search.until !== undefined) query = query.where('recorded_at', '<', search.until);
      if (search.after !== undefined)
        query = query.where('seq', search.order === 'newest' ? '<' : '>', search.after);
      const rows = await query
        .orderBy('seq', search.order === 'newest' ? 'desc' : 'asc')
        .limit(search.limit)
        .execute();
      return rows.map((row) => JSON.parse(row.entry) as AuditRecord);
    },

    /** The chain's head, and the anchor the retention purge left (the last purged record). */
    async head() {
      const row = (await db
        .selectFrom('audit_chain')
        .select(['seq', 'hash', 'purged_through', 'purged_hash'])
        .where('id', '=', 1)
        .executeTakeFirst()) ?? { seq: 0, hash: GENESIS_HASH, purged_through: 0, purged_hash: GENESIS_HASH };
      return {
        seq: Number(row.seq),
        hash: row.hash,
        purgedThrough: Number(row.purged_through),
        purgedHash: row.purged_hash,
      };
    },

    /** Up to `limit` stored rows after `afterSeq` and up to `lastSeq`, in the chain's order. */
    async rows(afterSeq: number, lastSeq: number, limit: number): Promise<AuditRow[]> {
      const rows = await db
        .selectFrom('audit_record')
        .selectAll()
        .where('seq', '>', afterSeq)
        .where('seq', '<=', lastSeq)
        .orderBy('seq')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        seq: Number(row.seq),
        recordedAt: row.recorded_at,
        actor: row.actor,
        action: row.action,
        target: row.target,
        entry: row.entry,
        prevHash: row.prev_hash,
        hash: row.hash,
      }));
    },

    /**
     * Removes the records older than `retentionDays` from the chain's start (never one from its
     * middle: the purge stops at the first record still kept), and keeps the last removed record's
     * hash as the anchor of the first kept. The append-only trigger lets this transaction, and only
     * records past that age, go. The number of records removed.
     */
    purgeOlderThan(retentionDays: number): Promise<number> {
      return db.transaction().execute(async (trx) => {
        await sql`select set_config('customer_core.audit_retention_days', ${String(retentionDays)}, true)`.execute(
          trx,
        );
        const removed = await sql<{ seq: string | number; hash: string }>`
          delete from audit_record
          where seq < coalesce(
            (select min(seq) from audit_record
              where recorded_at >= now() - make_interval(days => ${retentionDays})),
            (select seq + 1 from audit_chain where id = 1))
          returning seq, hash`.execute(trx);
        const last = removed.rows.reduce<{ seq: number; hash: string } | undefined>(
          (latest, row) =>
            latest && latest.seq > Number(row.seq) ? latest : { seq: Number(row.seq), hash: row.hash },
          undefined,
        );
        if (last)
          await trx
            .updateTable('audit_chain')
            .set({ purged_through: last.seq, purged_hash: last.hash })
            .where('id', '=', 1)
            .execute();
        return removed.rows.length;
      });
    },
  };
}

export type AuditRepository = ReturnType<typeof auditRepository>;
