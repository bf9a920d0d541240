import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { openDatabase } from '@customer-core/database';
import { createTestDatabase, type TestDatabase } from '@customer-core/database/testing';

describe(
  'PostgreSQL connection loss',
  { skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL' },
  () => {
    let database: TestDatabase;
    let db: Kysely<unknown>;
    const dropped: Error[] = [];
    before(async () => {
      database = await createTestDatabase('postgres');
      db = openDatabase(database.location, (error) => dropped.push(error));
    });
    after(async () => {
      await db.destroy();
      await database.drop();
    });

    it('survives the server closing idle connections, and reconnects', async () => {
      await sql`select 1`.execute(db);
      const name = new URL((database.location as { url: string }).url).pathname.slice(1);
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      await admin.end();
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.ok(dropped.length >= 1, 'the loss was reported, not thrown');
      const { rows } = await sql<{ ok: number }>`select 1 as ok`.execute(db);
      assert.deepEqual(rows, [{ ok: 1 }]);
    });
  },
);
