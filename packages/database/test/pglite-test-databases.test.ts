import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { openDatabase } from '../src/database.js';
import { createPGlitePool } from '../src/pglite-pool.js';
import { createTestDatabase } from '../testing/index.js';

// A test process's PGlite databases: one instance of the template, lent to one holder at a time and
// emptied for the next; whoever asks meanwhile gets a database of its own.

const migrations = {
  notes: {
    '0001_notes': {
      up: async (db: Kysely<unknown>) => {
        await sql`
          create table note (id bigint generated always as identity primary key, body text not null);
          create table note_tag (note_id bigint not null references note (id), tag text not null);
        `.execute(db);
      },
    },
  },
};

const countOf = async (db: Kysely<unknown>, table: 'note' | 'note_tag' | 'notes_migration') =>
  (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db)).rows[0]!.n;

const addNote = async (db: Kysely<unknown>, body: string) =>
  Number(
    (await sql<{ id: string }>`insert into note (body) values (${body}) returning id`.execute(db)).rows[0]!
      .id,
  );

describe('PGlite test databases', () => {
  it('lend the process its instance, emptied for the next holder, and another to a holder meanwhile', async () => {
    const first = await createTestDatabase('pglite', migrations);
    const db = openDatabase(first.location);
    const id = await addNote(db, 'kept by the first holder');
    await sql`insert into note_tag (note_id, tag) values (${id}, 'first')`.execute(db);

    const meanwhile = await createTestDatabase('pglite', migrations);
    assert.notEqual(meanwhile.location, first.location);
    const own = openDatabase(meanwhile.location);
    assert.equal(await countOf(own, 'note'), 0, 'a database of its own, not the lent one');
    await own.destroy();
    await meanwhile.drop();

    await db.destroy();
    await first.drop();
    const next = await createTestDatabase('pglite', migrations);
    const instanceOf = (location: typeof first.location) =>
      location.kind === 'pglite' ? location.instance : undefined;
    assert.ok(instanceOf(next.location));
    assert.equal(instanceOf(next.location), instanceOf(first.location), 'the same instance, not a new load');
    const again = openDatabase(next.location);
    assert.equal(await countOf(again, 'note_tag'), 0);
    assert.equal(await countOf(again, 'note'), 0);
    assert.equal(await countOf(again, 'notes_migration'), 1, 'the migrations stay done');
    assert.equal(await addNote(again, 'the next holder’s first'), 1, 'identities start over');
    await again.destroy();
    await next.drop();
  });

  it('let pools on one instance take turns: one never queries inside another’s transaction', async () => {
    const database = await createTestDatabase('pglite', migrations);
    assert.ok(database.location.kind === 'pglite' && database.location.instance);
    const instance = database.location.instance;
    const [a, b] = [
      createPGlitePool(instance, { borrowed: true }),
      createPGlitePool(instance, { borrowed: true }),
    ];
    const holder = await a.connect();
    await holder.query('begin', []);
    let bGotIt = false;
    const next = b.connect().then((client) => ((bGotIt = true), client));
    await holder.query('insert into note (body) values ($1)', ['not committed']);
    assert.equal(bGotIt, false, 'the other pool waits while the first holds the connection');
    await holder.query('rollback', []);
    holder.release();
    const other = await next;
    const { rows } = await other.query<{ n: number }>('select count(*)::int as n from note', []);
    other.release();
    assert.deepEqual(rows, [{ n: 0 }]);
    await a.end();
    await b.end();
    assert.equal(instance.closed, false, 'a borrowed instance outlives its pools');
    await database.drop();
  });
});
