import { sql } from 'kysely';
import { openDatabase } from '../src/database.js';
import type { Migrations } from '../src/migrations.js';
import { pgliteTemplate } from './index.js';

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
  // From the template file itself: the process's loaded instance (what createTestDatabase lends) has
  // no folder to write to.
  const db = openDatabase({ kind: 'pglite', templateFile: await pgliteTemplate(migrations), dataDir });
  try {
    // PGlite loads the template when it starts, and a database unused is never started.
    await sql`select 1`.execute(db);
  } finally {
    await db.destroy();
  }
}
