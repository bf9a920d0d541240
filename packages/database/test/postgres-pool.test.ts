import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { isConnectionLoss, openDatabase } from '@customer-core/database';
import { createTestDatabase, type TestDatabase } from '@customer-core/database/testing';

describe(
  'PostgreSQL connection loss',
  { skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL' },
  () => {
    let database: TestDatabase;
    let db: Kysely<unknown>;
    let nextLoss: Promise<Error>;
    let lost: (error: Error) => void;
    const expectLoss = () => {
      nextLoss = new Promise((resolve) => (lost = resolve));
    };
    before(async () => {
      database = await createTestDatabase('postgres');
      db = openDatabase(database.location, (error) => lost(error));
    });
    after(async () => {
      await db.destroy();
      await database.drop();
    });

    const terminateAll = async () => {
      const name = new URL((database.location as { url: string }).url).pathname.slice(1);
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      await admin.end();
    };

    it('survives the server closing idle connections, and reconnects', async () => {
      await sql`select 1`.execute(db);
      expectLoss();
      await terminateAll();
      assert.equal((await nextLoss).message.includes('terminating connection'), true, 'reported, not thrown');
      const { rows } = await sql<{ ok: number }>`select 1 as ok`.execute(db);
      assert.deepEqual(rows, [{ ok: 1 }]);
    });

    it('survives losing a connection that is checked out between two queries; the next query fails cleanly', async () => {
      const failure = await db.connection().execute(async (connection) => {
        await sql`select 1`.execute(connection);
        expectLoss();
        await terminateAll(); // without a listener on the checked-out client, this ends the process
        await nextLoss;
        return sql`select 1`.execute(connection).then(
          () => undefined,
          (error: unknown) => error,
        );
      });
      assert.ok(failure, 'the query on the dead connection fails');
      assert.equal(
        isConnectionLoss(failure),
        true,
        `${failure instanceof Error ? failure.message : 'the failure'} is a connection loss (503, not 500)`,
      );
      const { rows } = await sql<{ ok: number }>`select 1 as ok`.execute(db);
      assert.deepEqual(
        rows,
        [{ ok: 1 }],
        'the dead connection was discarded: the next query gets a fresh one',
      );
    });

    it('tells a lost connection from a wrong query', async () => {
      const wrong = await sql`select * from no_such_table`.execute(db).catch((error: unknown) => error);
      assert.equal(isConnectionLoss(wrong), false);
      const timedOut = await db
        .transaction()
        .execute(async (trx) => {
          await sql`set local statement_timeout = 50`.execute(trx);
          await sql`select pg_sleep(1)`.execute(trx);
        })
        .catch((error: unknown) => error);
      assert.equal(isConnectionLoss(timedOut), true, 'a statement cut off by its timeout: try again later');
    });
  },
);
