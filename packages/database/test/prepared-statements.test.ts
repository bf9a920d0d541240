import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import {
  openDatabase,
  PREPARED_PER_CONNECTION,
  statementsUnprepared,
  type DatabaseLocation,
} from '@customer-core/database';
import { createPGlitePool } from '../src/pglite-pool.js';
import { createTestDatabase, type TestDatabase } from '@customer-core/database/testing';

// Statements with parameters are prepared by name on PostgreSQL (parsed and planned once per
// connection). Each database here has one connection, so what it has prepared is what
// pg_prepared_statements shows it.

interface Tables {
  borrower_note: { id: number; body: string; added?: string | null };
}

const preparedNames = async (db: Kysely<Tables>) =>
  (await sql<{ name: string }>`select name from pg_prepared_statements`.execute(db)).rows.map((r) => r.name);

describe(
  'prepared statements on PostgreSQL',
  { skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL' },
  () => {
    let database: TestDatabase;
    const opened: Kysely<Tables>[] = [];
    const open = (options: Partial<Extract<DatabaseLocation, { kind: 'postgres' }>> = {}) => {
      const db = openDatabase<Tables>({
        ...(database.location as Extract<DatabaseLocation, { kind: 'postgres' }>),
        maxConnections: 1,
        ...options,
      });
      opened.push(db);
      return db;
    };
    before(async () => {
      database = await createTestDatabase('postgres');
      await sql`create table borrower_note (id int primary key, body text not null)`.execute(open());
    });
    after(async () => {
      for (const db of opened) await db.destroy();
      await database.drop();
    });

    it('prepares a text with parameters once per connection, and answers it as before', async () => {
      const db = open();
      for (let i = 0; i < 3; i++) {
        const { rows } = await sql<{ n: number }>`select ${i}::int + 1 as n`.execute(db);
        assert.deepEqual(rows, [{ n: i + 1 }]);
      }
      const names = await preparedNames(db);
      assert.equal(names.length, 1, names.join(', '));
      assert.match(names[0]!, /^cc_/);
      // Several commands in one text without parameters still go (unnamed, by the simple protocol).
      await sql`select 1; select 2`.execute(db);
    });

    it('prepares a text that multiplies, but not one that reads every column of a table', async () => {
      const db = open();
      await sql`select ${2}::int * 3 as n, count(*) as notes from borrower_note`.execute(db);
      assert.equal((await preparedNames(db)).length, 1, 'a * b and count(*) name their columns');
      await sql`select n.* from borrower_note n where id = ${1}`.execute(db);
      await sql`select * from borrower_note where id = ${1}`.execute(db);
      await sql`insert into borrower_note values (${9}, 'x') returning *`.execute(db);
      assert.equal((await preparedNames(db)).length, 1, 't.*, select * and returning * are not prepared');
      // The statements with parameters sent unprepared, counted (pg_prepared_statements has none).
      assert.equal(statementsUnprepared(db), 3);
    });

    it('prepares nothing when told not to (a pooler that does not keep them)', async () => {
      const db = open({ preparedStatements: false });
      await sql`select ${1}::int as n`.execute(db);
      await sql`select ${2}::int as n`.execute(db);
      assert.deepEqual(await preparedNames(db), []);
      assert.equal(statementsUnprepared(db), 2);
    });

    it('keeps answering, every column included, after a column is added while it serves (a release’s migration)', async () => {
      const db = open();
      const note = (id: number) => db.selectFrom('borrower_note').selectAll().where('id', '=', id);
      const body = (id: number) => db.selectFrom('borrower_note').select('body').where('id', '=', id);
      await db.insertInto('borrower_note').values({ id: 1, body: 'first' }).execute();
      for (let i = 0; i < 2; i++) {
        assert.deepEqual(await note(1).execute(), [{ id: 1, body: 'first' }]);
        assert.deepEqual(await body(1).execute(), [{ body: 'first' }]);
      }
      // The next release's migration, from another connection.
      await sql`alter table borrower_note add column added text`.execute(open());
      assert.deepEqual(await note(1).execute(), [{ id: 1, body: 'first', added: null }]);
      assert.deepEqual(await body(1).execute(), [{ body: 'first' }]);
    });

    it(`names at most ${PREPARED_PER_CONNECTION} texts per connection, and sends the rest unnamed`, async () => {
      const db = open();
      const texts = PREPARED_PER_CONNECTION + 10;
      for (let i = 0; i < texts; i++) {
        const { rows } = await sql<{ n: number }>`select ${i}::int + ${sql.lit(i)} as n`.execute(db);
        assert.deepEqual(rows, [{ n: 2 * i }]);
      }
      assert.equal((await preparedNames(db)).length, PREPARED_PER_CONNECTION);
      // Those named first are still used (prepared once: no second Parse fails).
      const { rows } = await sql<{ n: number }>`select ${3}::int + ${sql.lit(0)} as n`.execute(db);
      assert.deepEqual(rows, [{ n: 3 }]);
    });

    it('a connection the server ended is replaced, and the new one prepares again', async () => {
      const db = open();
      await sql`select ${1}::int as n`.execute(db);
      const [name] = await preparedNames(db);
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      const { rows: backend } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
      // With a timeout, it returns once the backend has exited: without, the backend may still answer
      // the next query, and end under the one after it.
      await admin.query('select pg_terminate_backend($1, 5000)', [backend[0]!.pid]);
      await admin.end();
      // The first query after the loss fails on the dead connection (connection-loss.ts); then a new one.
      await sql`select ${1}::int as n`.execute(db).catch(() => undefined);
      const { rows } = await sql<{ n: number }>`select ${1}::int as n`.execute(db);
      assert.deepEqual(rows, [{ n: 1 }]);
      assert.deepEqual(await preparedNames(db), [name]);
    });
  },
);

// PGlite, one connection per instance, runs each statement through its protocol in one call
// (pglite-pool.ts): prepared by name once per instance, values serialised by their parameters' types.
describe('prepared statements on PGlite', () => {
  let database: TestDatabase;
  let db: Kysely<Tables>;
  before(async () => {
    database = await createTestDatabase('pglite', {}, { own: true });
    db = openDatabase<Tables>(database.location);
    await sql`create table borrower_note (id int primary key, body text not null, added text)`.execute(db);
  });
  after(async () => {
    await db.destroy();
    await database.drop();
  });

  it('prepares a text with parameters once per instance, every column read included', async () => {
    for (let i = 0; i < 3; i++) {
      await db
        .insertInto('borrower_note')
        .values({ id: i, body: `note ${i}` })
        .execute();
      const rows = await db.selectFrom('borrower_note').selectAll().where('id', '=', i).execute();
      assert.deepEqual(rows, [{ id: i, body: `note ${i}`, added: null }]);
    }
    const names = await preparedNames(db);
    assert.equal(names.length, 2, names.join(', ')); // the insert and the select
    assert.ok(names.every((name) => /^cc_/.test(name)));
  });

  it('answers each type as PGlite’s own query() does', async () => {
    const instance = (database.location as Extract<DatabaseLocation, { kind: 'pglite' }>).instance!;
    const values = [
      { at: new Date('2026-11-28T10:00:00.123Z'), list: [1, null] },
      [1, 2, 3],
      new Uint8Array([0, 1, 254, 255]),
      true,
      12.5,
      '9007199254740993',
      null,
      `it's "quoted", é`,
      new Date('2026-11-28T10:00:00.123Z'),
    ];
    const text = `select $1::jsonb as j, $2::int[] as a, $3::bytea as b, $4::boolean as t, $5::float8 as f,
      $6::bigint as g, $7::text as n, $8 || '' as s, $9::timestamptz as d`;
    const pool = createPGlitePool(instance, { borrowed: true });
    const client = await pool.connect();
    try {
      const ours = await client.query<Record<string, unknown>>(text, values);
      const its = await instance.query<Record<string, unknown>>(text, values);
      assert.deepEqual(ours.rows, its.rows);
      assert.deepEqual(ours.rows[0]!.b, new Uint8Array([0, 1, 254, 255]));
    } finally {
      client.release();
    }
  });

  it('after a refused statement, in a transaction or not, the next one is answered', async () => {
    const duplicate = () => db.insertInto('borrower_note').values({ id: 0, body: 'again' }).execute();
    await assert.rejects(duplicate(), { code: '23505' });
    await assert.rejects(sql`selec ${1}`.execute(db), { code: '42601' });
    assert.equal((await db.selectFrom('borrower_note').select('id').where('id', '=', 0).execute()).length, 1);
    await assert.rejects(
      db.transaction().execute(async (tx) => {
        await tx.insertInto('borrower_note').values({ id: 10, body: 'rolled back' }).execute();
        await tx.insertInto('borrower_note').values({ id: 0, body: 'again' }).execute();
      }),
      { code: '23505' },
    );
    const ids = await db.selectFrom('borrower_note').select('id').where('id', '>=', 10).execute();
    assert.deepEqual(ids, [], 'the transaction rolled back as a whole');
  });
});
