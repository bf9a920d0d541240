import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openDatabase, prepareDatabase } from '@customer-core/database';

describe('the embedded database folder', () => {
  const parent = mkdtempSync(path.join(tmpdir(), 'customer-core-pglite-'));
  after(() => rmSync(parent, { recursive: true, force: true }));

  it('is created before it is opened, and opened as it is on every later start', async () => {
    const location = { kind: 'pglite', dataDir: path.join(parent, 'fresh') } as const;
    await prepareDatabase(location);
    assert.ok(existsSync(path.join(location.dataDir, 'PG_VERSION')));

    const db = openDatabase(location);
    await sql`create table borrower_note (body text)`.execute(db);
    await sql`insert into borrower_note values ('kept')`.execute(db);
    const settings = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(db);
    await db.destroy();
    assert.equal(settings.rows[0]?.shared_buffers, '32MB');

    await prepareDatabase(location); // a later start: the folder exists, nothing is redone
    const reopened = openDatabase(location);
    const notes = await sql<{ body: string }>`select body from borrower_note`.execute(reopened);
    await reopened.destroy();
    assert.deepEqual(notes.rows, [{ body: 'kept' }]);
  });

  it('refuses each query with the cause when its files cannot be loaded, and closes all the same', async () => {
    const db = openDatabase({ kind: 'pglite', templateFile: path.join(parent, 'missing.tar') });
    await assert.rejects(sql`select 1`.execute(db), /missing\.tar/);
    await db.destroy(); // nothing was opened: nothing to close, and no second report of the cause
  });

  it('says which folder could not be created', async () => {
    const blocked = path.join(parent, 'not-a-folder');
    writeFileSync(blocked, 'a file where the data folder should be');
    await assert.rejects(
      prepareDatabase({ kind: 'pglite', dataDir: path.join(blocked, 'pglite') }),
      /not-a-folder/,
    );
  });
});
