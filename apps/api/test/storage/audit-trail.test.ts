import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import pino from 'pino';
import { testDatabaseKinds } from '@customer-core/database/testing';
import { race, racersOn, type ContractDatabase } from '@customer-core/database/testing/storage-contract';
import type { AuditEntry } from '../../src/audit/audit-record.js';
import { auditRepository } from '../../src/audit/audit-repository.js';
import { auditTrail, type AuditTrail } from '../../src/audit/audit-trail.js';
import type { ApiDatabase } from '../../src/db/schema.js';
import { openApiStorage } from './support.js';

// The audit trail: appended in one numbered chain from every instance, never changed or removed by
// the portal's connection (but for the retention purge), and any edit made around that found by verify.

const DAY = 86_400_000;
const entry = (action: string, extra: Partial<AuditEntry> = {}): AuditEntry => ({
  actor: 'service:operator',
  role: 'operator',
  action,
  target: 'email:dana@example.com',
  outcome: 200,
  reason: null,
  clientAddress: '127.0.0.1',
  requestId: 'req-1',
  ...extra,
});

for (const kind of testDatabaseKinds()) {
  describe(`audit trail (${kind})`, () => {
    let database: ContractDatabase<ApiDatabase>;
    let trail: AuditTrail;
    const log = pino({ level: 'silent' });

    before(async () => {
      database = await openApiStorage(kind);
      trail = auditTrail(auditRepository(database.db), log);
    });
    after(() => database?.close());

    /** The stored rows of these records, to be put back as they were. */
    const rowsOf = async (...seqs: number[]) =>
      (await database.db.selectFrom('audit_record').selectAll().where('seq', 'in', seqs).execute()).map(
        (row) => ({ ...row, seq: Number(row.seq) }),
      );

    /** Runs `edit` around the append-only trigger (as someone with the table's ownership could), then undoes it. */
    async function tampered(
      edit: (db: Kysely<ApiDatabase>) => Promise<unknown>,
      undo: (db: Kysely<ApiDatabase>) => Promise<unknown>,
    ) {
      await sql`alter table audit_record disable trigger audit_record_append_only`.execute(database.db);
      try {
        await edit(database.db);
        return await trail.verify();
      } finally {
        await undo(database.db);
        await sql`alter table audit_record enable trigger audit_record_append_only`.execute(database.db);
      }
    }

    it('numbers concurrent appends from two instances one after another, each naming the hash before it', async () => {
      const racers = racersOn(kind);
      const records = await race(racers, (i) =>
        auditTrail(auditRepository(i % 2 ? database.another() : database.db), log).record(
          entry(`call ${i}`, {
            before: { amountCents: i },
            after: { amountCents: i + 1 },
            reason: `ticket ${i}`,
          }),
        ),
      );
      assert.deepEqual(
        records.map((record) => record!.seq).sort((a, b) => a - b),
        Array.from({ length: racers }, (_, i) => i + 1),
      );
      assert.deepEqual(await trail.verify(), {
        intact: true,
        records: racers,
        firstSeq: 1,
        lastSeq: racers,
        problem: null,
      });
      const newest = await trail.search({ order: 'newest', limit: 2 });
      assert.deepEqual(
        newest.map((record) => record.seq),
        [racers, racers - 1],
      );
      const found = await trail.search({ order: 'oldest', action: 'call 3', limit: 10 });
      assert.equal(found.length, 1);
      assert.deepEqual(
        [found[0]!.before, found[0]!.after, found[0]!.reason],
        [{ amountCents: 3 }, { amountCents: 4 }, 'ticket 3'],
      );
      const page = await trail.search({ order: 'oldest', after: 2, limit: 2 });
      assert.deepEqual(
        page.map((record) => record.seq),
        [3, 4],
      );
    });

    it('finds the chain whole while records are appended during the check', async () => {
      const checks = await race(racersOn(kind), (i) =>
        i % 3 === 0
          ? auditTrail(auditRepository(database.another()), log).verify()
          : auditTrail(auditRepository(i % 2 ? database.another() : database.db), log)
              .record(entry(`during a check ${i}`))
              .then(() => null),
      );
      const verdicts = checks.filter((check) => check !== null);
      assert.ok(verdicts.length > 0);
      for (const check of verdicts) assert.equal(check.intact, true, JSON.stringify(check.problem));
      assert.equal((await trail.verify()).intact, true);
    });

    it('refuses to change, remove or truncate a record over the portal’s own connection', async () => {
      for (const statement of [
        sql`update audit_record set target = 'x' where seq = 1`,
        sql`update audit_record set action = 'nothing happened'`,
        sql`delete from audit_record where seq = 1`,
        sql`truncate audit_record`,
      ])
        await assert.rejects(statement.execute(database.db), /append-only/);
      // The retention's setting lets only records past it go, and never under a year.
      await assert.rejects(
        database.db.transaction().execute(async (trx) => {
          await sql`select set_config('customer_core.audit_retention_days', '30', true)`.execute(trx);
          await sql`delete from audit_record where seq = 1`.execute(trx);
        }),
        /append-only/,
      );
      await assert.rejects(
        database.db.transaction().execute(async (trx) => {
          await sql`select set_config('customer_core.audit_retention_days', '365', true)`.execute(trx);
          await sql`delete from audit_record where seq = 1`.execute(trx);
        }),
        /append-only/,
      );
      assert.equal((await trail.verify()).intact, true);
    });

    it('verify finds an edited record, a record gone, and the newest records gone', async () => {
      const { entry: original, hash } = await database.db
        .selectFrom('audit_record')
        .select(['entry', 'hash'])
        .where('seq', '=', 2)
        .executeTakeFirstOrThrow();
      const restore = (db: Kysely<ApiDatabase>) =>
        db.updateTable('audit_record').set({ entry: original, hash }).where('seq', '=', 2).execute();

      const edited = original.replace('"outcome":200', '"outcome":201');
      assert.notEqual(edited, original);
      assert.deepEqual(
        (
          await tampered(
            (db) => db.updateTable('audit_record').set({ entry: edited }).where('seq', '=', 2).execute(),
            restore,
          )
        ).problem,
        { seq: 2, what: 'was changed after it was recorded' },
      );
      // The searched columns are checked against the entry they were copied from.
      const relabelled = await tampered(
        (db) =>
          db
            .updateTable('audit_record')
            .set({ actor: 'service:someone-else' })
            .where('seq', '=', 2)
            .execute(),
        (db) =>
          db.updateTable('audit_record').set({ actor: 'service:operator' }).where('seq', '=', 2).execute(),
      );
      assert.deepEqual(relabelled.problem, { seq: 2, what: 'was changed after it was recorded' });

      // Rehashed after the edit, it no longer matches what the next record names.
      const { createHash } = await import('node:crypto');
      const { prev_hash } = await database.db
        .selectFrom('audit_record')
        .select('prev_hash')
        .where('seq', '=', 2)
        .executeTakeFirstOrThrow();
      const rehashed = createHash('sha256').update(`${prev_hash}\n${edited}`).digest('hex');
      assert.deepEqual(
        (
          await tampered(
            (db) =>
              db
                .updateTable('audit_record')
                .set({ entry: edited, hash: rehashed })
                .where('seq', '=', 2)
                .execute(),
            restore,
          )
        ).problem,
        { seq: 3, what: 'does not name the hash of the record before it' },
      );

      const removed = await rowsOf(3);
      assert.deepEqual(
        (
          await tampered(
            (db) => db.deleteFrom('audit_record').where('seq', '=', 3).execute(),
            (db) => db.insertInto('audit_record').values(removed).execute(),
          )
        ).problem,
        { seq: 3, what: 'is missing' },
      );
      const head = await auditRepository(database.db).head();
      const newest = await rowsOf(head.seq);
      assert.deepEqual(
        (
          await tampered(
            (db) => db.deleteFrom('audit_record').where('seq', '=', head.seq).execute(),
            (db) => db.insertInto('audit_record').values(newest).execute(),
          )
        ).problem,
        { seq: head.seq, what: 'is missing' },
      );
      assert.equal((await trail.verify()).intact, true);
    });

    it('the retention purge removes records past it from the chain’s start, and the rest still verifies', async () => {
      const repository = auditRepository(database.db);
      const { seq: before } = await repository.head();
      await sql`alter table audit_record disable trigger audit_record_append_only`.execute(database.db);
      // A trail begun long ago: the chain so far, and three more, all dated 400 days back.
      await sql`delete from audit_record`.execute(database.db);
      await sql`update audit_chain set seq = 0, hash = repeat('0', 64)`.execute(database.db);
      await sql`alter table audit_record enable trigger audit_record_append_only`.execute(database.db);
      const longAgo = new Date(Date.now() - 400 * DAY);
      for (const action of ['old 1', 'old 2', 'old 3']) await repository.append(entry(action), longAgo);
      for (const action of ['new 1', 'new 2']) await repository.append(entry(action));
      assert.ok(before > 0);

      assert.equal(await trail.purgeOlderThan(500), 0);
      assert.equal(await trail.purgeOlderThan(365), 3);
      assert.equal(await trail.purgeOlderThan(365), 0);
      assert.deepEqual(await trail.verify(), {
        intact: true,
        records: 2,
        firstSeq: 4,
        lastSeq: 5,
        problem: null,
      });
      const anchor = await repository.head();
      assert.equal(anchor.purgedThrough, 3);
    });
  });
}
