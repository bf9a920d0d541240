import { sql } from 'kysely';
import { openDatabase } from '../src/database.js';
import type { Migrations } from '../src/migrations.js';
import { createTestDatabase } from './index.js';

/**
 * An embedded database folder for a process of its own (its DATA_DIR) that starts with these
 * migrations run: the test template loaded into it, so that the process's first start finds a folder
 * to open (no initdb, some seconds of CPU) and no migration to run. Creating a folder is
 * pglite-data-dir.test.ts's subject, not every process test's.
 */
export async function createPgliteDataFolder(
  dataDir: string,
  migrations: Record<string, Migrations>,
): Promise<void> {
  const { location } = await createTestDatabase('pglite', migrations);
  if (location.kind !== 'pglite') throw new Error('not a PGlite template');
  const db = openDatabase({ ...location, dataDir });
  try {
    // PGlite loads the template when it starts, and a database unused is never started.
    await sql`select 1`.execute(db);
  } finally {
    await db.destroy();
  }
}
