import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { isConnectionLoss } from '@customer-core/database';
import {
  openContractDatabase,
  type ContractDatabase,
} from '@customer-core/database/testing/storage-contract';

// The storage contract's own tools, where a test of a store leans on them to mean what it says.
describe(
  'a connection cut while it waits for a lock',
  { skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL' },
  () => {
    let database: ContractDatabase<unknown>;
    before(async () => {
      database = await openContractDatabase('postgres', {});
      await sql`create table entry (id text primary key)`.execute(database.db);
    });
    after(() => database?.close());

    it('is found when the call opens its connection after the lock is taken', async () => {
      // A pool with no connection yet: the call's backend starts after the holder first looks.
      const fresh = database.another();
      const error = await database.cutWhileWaiting('insert into entry (id) values ($1)', ['taken'], () =>
        sql`insert into entry (id) values ('taken')`.execute(fresh),
      );
      assert.equal(isConnectionLoss(error), true, String(error));
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from entry`.execute(database.db);
      assert.deepEqual(rows, [{ n: 0 }], 'neither insert stays');
    });
  },
);
