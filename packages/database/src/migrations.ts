import { Migrator, sql, type Kysely, type Migration } from 'kysely';

/**
 * A step of a component's schema. An expand step only adds (a table, a nullable or defaulted column,
 * an index): the previous release keeps working on the schema after it. A `contract` step changes or
 * removes what the previous release reads; it is recorded as such, and an instance that does not know
 * it refuses to start (docs/decisions/0009-expand-contract-migrations.md).
 */
export interface SchemaMigration extends Migration {
  contract?: true;
}

export type Migrations = Record<string, SchemaMigration>;

/** Where a component's schema stands against the migrations a release knows. */
export interface SchemaStatus {
  component: string;
  /** Known migrations that have run, with when (ISO), in order. */
  applied: { name: string; at: string }[];
  /** Known migrations that have not run, in order. */
  pending: string[];
  /** Migrations that have run and this release does not know (a later release's). */
  unknown: string[];
  /** Of those, the contract steps: this release's code may no longer fit the schema. */
  unknownContracts: string[];
}

/** A schema this release cannot migrate or serve; its message is one line. */
export class SchemaMismatchError extends Error {
  constructor(
    message: string,
    readonly statuses: SchemaStatus[],
  ) {
    super(message);
  }
}

/** The migration lock stayed held by another migration for longer than the caller would wait. */
export class MigrationLockTimeoutError extends Error {}

const migrationTable = (component: string) => `${component}_migration`;
/** The contract steps that have run; named like the bookkeeping tables (test databases keep their rows). */
const contractTable = (component: string) => `${component}_contract_migration`;

/**
 * Each component (the identity provider, the API) keeps its own migration history, so each can add
 * migrations without ordering against the other.
 */
function migratorFor<DB>(db: Kysely<DB>, component: string, migrations: Migrations) {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: migrationTable(component),
    migrationLockTableName: `${component}_migration_lock`,
  });
}

export interface MigrateOptions {
  /** Told as each migration begins and when it is done (in the transaction that runs them all). */
  onProgress?: (event: { component: string; name: string; done: boolean; ms: number }) => void;
  /**
   * PostgreSQL: wait at most this long for another migration of the database (another instance
   * starting, an operator's `migrate up`) to finish, then fail with MigrationLockTimeoutError.
   * Held on a connection of its own: the pool needs two. Unset: no lock of ours (PGlite: one process).
   */
  lockTimeoutMs?: number;
}

/**
 * Runs the component's pending migrations, in one transaction. Refuses (SchemaMismatchError) a
 * schema with migrations this release does not know, unless they are all expand steps and none of
 * its own is pending: then there is nothing to do. The names it ran.
 */
export async function migrateToLatest<DB>(
  db: Kysely<DB>,
  component: string,
  migrations: Migrations,
  options: MigrateOptions = {},
): Promise<string[]> {
  // Every start of an up-to-date database would otherwise pay for the migrator's checks: it reads
  // every column of every table (twice) to learn whether its two tables exist.
  const before = await schemaStatus(db, component, migrations);
  refuseUnknown(before);
  if (before.pending.length === 0) return [];
  const { lockTimeoutMs } = options;
  if (lockTimeoutMs === undefined) return runMigrator(db, component, migrations, options);
  return db.connection().execute(async (lockHolder) => {
    await takeMigrationLock(lockHolder, component, lockTimeoutMs);
    try {
      // Another instance may have run them while this one waited.
      const now = await schemaStatus(db, component, migrations);
      refuseUnknown(now);
      if (now.pending.length === 0) return [];
      return await runMigrator(db, component, migrations, options);
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${migrationTable(component)}))`.execute(lockHolder);
      await sql`reset lock_timeout; reset statement_timeout`.execute(lockHolder);
    }
  });
}

const seconds = (ms: number) => {
  const n = Math.max(1, Math.round(ms / 1000));
  return `${n} second${n === 1 ? '' : 's'}`;
};

async function takeMigrationLock<DB>(conn: Kysely<DB>, component: string, timeoutMs: number) {
  // Session settings on this connection only; reset before it goes back to the pool.
  await sql
    .raw(`set statement_timeout = 0; set lock_timeout = ${Math.max(1, Math.round(timeoutMs))}`)
    .execute(conn);
  try {
    await sql`select pg_advisory_lock(hashtext(${migrationTable(component)}))`.execute(conn);
  } catch (error) {
    await sql`reset lock_timeout; reset statement_timeout`.execute(conn).catch(() => {});
    if ((error as { code?: string }).code === '55P03')
      throw new MigrationLockTimeoutError(
        `Another migration of the ${component} schema held the lock for over ${seconds(timeoutMs)}; try again when it has finished.`,
        { cause: error },
      );
    throw error;
  }
}

async function runMigrator<DB>(
  db: Kysely<DB>,
  component: string,
  migrations: Migrations,
  { onProgress }: MigrateOptions,
): Promise<string[]> {
  const watched: Migrations = Object.fromEntries(
    Object.entries(migrations).map(([name, migration]) => [
      name,
      {
        ...migration,
        async up(trx: Kysely<unknown>) {
          const start = performance.now();
          onProgress?.({ component, name, done: false, ms: 0 });
          await migration.up(trx);
          if (migration.contract) await recordContract(trx, component, name);
          onProgress?.({ component, name, done: true, ms: Math.round(performance.now() - start) });
        },
      },
    ]),
  );
  const { error, results } = await migratorFor(db, component, watched).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(
      `${component} migration ${failed} failed, and every migration of this run was undone: ${error instanceof Error ? error.message : JSON.stringify(error)}`,
      { cause: error },
    );
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

async function recordContract(trx: Kysely<unknown>, component: string, name: string) {
  const table = sql.table(contractTable(component));
  await sql`create table if not exists ${table} (name text primary key)`.execute(trx);
  await sql`insert into ${table} (name) values (${name}) on conflict do nothing`.execute(trx);
}

/** Unknown migrations are borne only when all are expand steps and nothing of this release is pending. */
function refuseUnknown(status: SchemaStatus) {
  if (status.unknown.length === 0) return;
  if (status.unknownContracts.length > 0 || status.pending.length > 0)
    throw new SchemaMismatchError(
      `The ${status.component} schema has migrations this release does not know (${status.unknown.join(', ')})`,
      [status],
    );
}

/** Where the component's schema stands against `migrations`. */
export async function schemaStatus<DB>(
  db: Kysely<DB>,
  component: string,
  migrations: Migrations,
): Promise<SchemaStatus> {
  const known = Object.keys(migrations).sort();
  const { rows: found } = await sql<{ migrations: string | null; contracts: string | null }>`
    select to_regclass(${migrationTable(component)})::text as migrations,
           to_regclass(${contractTable(component)})::text as contracts`.execute(db);
  const executed = found[0]?.migrations
    ? (
        await sql<{ name: string; timestamp: string }>`
          select name, timestamp from ${sql.table(migrationTable(component))} order by name`.execute(db)
      ).rows
    : [];
  const contracts = found[0]?.contracts
    ? (
        await sql<{ name: string }>`select name from ${sql.table(contractTable(component))}`.execute(db)
      ).rows.map((row) => row.name)
    : [];
  const ran = new Set(executed.map((row) => row.name));
  const knows = (name: string) => Object.hasOwn(migrations, name);
  const unknown = executed.map((row) => row.name).filter((name) => !knows(name));
  return {
    component,
    applied: executed.filter((row) => knows(row.name)).map((row) => ({ name: row.name, at: row.timestamp })),
    pending: known.filter((name) => !ran.has(name)),
    unknown,
    unknownContracts: unknown.filter((name) => contracts.includes(name)),
  };
}

/** True when every migration of the component has run (readiness). */
export async function isMigrated<DB>(db: Kysely<DB>, component: string, migrations: Migrations) {
  return (await schemaStatus(db, component, migrations)).pending.length === 0;
}
