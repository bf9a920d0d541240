import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import { sql } from 'kysely';
import { openDatabase } from '../src/database.js';
import type { Migrations } from '../src/migrations.js';
import { pgliteTemplate, templateFolderOf } from './index.js';

/**
 * An embedded database folder for a process of its own (its DATA_DIR) that starts with these
 * migrations run, so that the process's first start finds a folder to open (no initdb, some seconds of
 * CPU) and no migration to run. Creating a folder is pglite-data-dir.test.ts's subject, not every
 * process test's: this one is a copy of a folder made once per template, a fifth of the CPU of loading
 * the template into each folder.
 */
export async function createPgliteDataFolder(
  dataDir: string,
  migrations: Record<string, Migrations>,
): Promise<void> {
  cpSync(await templateFolder(migrations), dataDir, { recursive: true });
}

/** The template of these migrations loaded into a folder, beside its file; made on first use. */
async function templateFolder(migrations: Record<string, Migrations>): Promise<string> {
  const templateFile = await pgliteTemplate(migrations);
  const folder = templateFolderOf(templateFile);
  if (existsSync(folder)) return folder;
  // Made aside and renamed: test files running at once never copy half a folder.
  const partial = `${folder}.${process.pid}.${randomBytes(4).toString('hex')}`;
  // From the template file itself: the process's loaded instance (what createTestDatabase lends) has
  // no folder to write to.
  const db = openDatabase({ kind: 'pglite', templateFile, dataDir: partial });
  try {
    // PGlite loads the template when it starts, and a database unused is never started.
    await sql`select 1`.execute(db);
  } finally {
    await db.destroy();
  }
  try {
    renameSync(partial, folder);
  } catch (error) {
    // Another test run made it meanwhile.
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(folder)) throw error;
  }
  return folder;
}
