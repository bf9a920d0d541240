import { Migrator, sql, type Kysely, type Migration } from 'kysely';

export type Migrations = Record<string, Migration>;

/**
 * Each component (the identity provider, the API) keeps its own migration history, so each can add
 * migrations without ordering against the other. Kysely's migration lock makes concurrent start-ups
 * of several instances safe.
 */
function migratorFor<DB>(db: Kysely<DB>, component: string, migrations: Migrations) {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: `${component}_migration`,
    migrationLockTableName: `${component}_migration_lock`,
  });
}

export async function migrateToLatest<DB>(db: Kysely<DB>, component: string, migrations: Migrations) {
  // Every start of an up-to-date database would otherwise pay for the migrator's checks: it reads
  // every column of every table (twice) to learn whether its two tables exist.
  const executed = await executedMigrations(db, component);
  const known = Object.keys(migrations);
  if (executed?.length === known.length && known.every((name) => executed.includes(name))) return;
  const { error, results } = await migratorFor(db, component, migrations).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(
      `${component} migration ${failed} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`,
      { cause: error },
    );
  }
}

/** True when every migration of the component has run (readiness). */
export async function isMigrated<DB>(db: Kysely<DB>, component: string, migrations: Migrations) {
  const executed = await executedMigrations(db, component);
  return Object.keys(migrations).every((name) => executed?.includes(name));
}

/** The names of the component's migrations that have run; undefined before its first migration. */
async function executedMigrations<DB>(db: Kysely<DB>, component: string): Promise<string[] | undefined> {
  const table = `${component}_migration`;
  const { rows } = await sql<{ found: string | null }>`
    select to_regclass(${table})::text as found`.execute(db);
  if (!rows[0]?.found) return undefined;
  const done = await sql<{ name: string }>`select name from ${sql.table(table)}`.execute(db);
  return done.rows.map((row) => row.name);
}
