import { Migrator, type Kysely, type Migration } from 'kysely';

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
  const all = await migratorFor(db, component, migrations).getMigrations();
  return all.every((m) => m.executedAt !== undefined);
}
