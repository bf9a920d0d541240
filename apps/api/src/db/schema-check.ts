import type { Kysely } from 'kysely';
import {
  migrateToLatest,
  schemaStatus,
  SchemaMismatchError,
  type DatabaseLocation,
  type Migrations,
  type SchemaStatus,
} from '@customer-core/database';

/** The migration step, as operators run it. */
export const MIGRATE_COMMAND = 'npm run cli -- migrate up';

/** How long an instance starting on PostgreSQL waits for another's migrations to finish. */
export const START_MIGRATION_LOCK_TIMEOUT_MS = 60_000;

const named = (statuses: SchemaStatus[], pick: (s: SchemaStatus) => string[]) =>
  statuses.flatMap((s) => pick(s).map((name) => `${s.component} ${name}`));

/**
 * Why this release cannot start on the schema, in one line; null when it can (after migrating, if
 * `willMigrate`). Migrations of a later release are borne when they only add (expand steps, see
 * docs/decisions/0009-expand-contract-migrations.md); a later contract step is not.
 */
export function schemaProblem(statuses: SchemaStatus[], willMigrate: boolean): string | null {
  const contracts = named(statuses, (s) => s.unknownContracts);
  const unknown = named(statuses, (s) => s.unknown);
  const pending = named(statuses, (s) => s.pending);
  if (contracts.length > 0)
    return `The database's schema is newer than this release: a later release's migration ${contracts.join(', ')} changed what this one reads. Start a release that knows it.`;
  if (unknown.length > 0 && pending.length > 0)
    return `The database's schema is not one this release knows: it has migrations of another release (${unknown.join(', ')}) and lacks this one's (${pending.join(', ')}).`;
  if (pending.length === 0 || willMigrate) return null;
  const migrateFirst = `Run the migration step first: ${MIGRATE_COMMAND} (or start with MIGRATE_ON_START=true).`;
  if (statuses.every((s) => s.applied.length === 0 && s.unknown.length === 0))
    return `The database is not migrated yet. ${migrateFirst}`;
  return `The database's schema is behind this release: ${pending.length} migration${pending.length === 1 ? '' : 's'} pending (${pending.join(', ')}). ${migrateFirst}`;
}

/**
 * At start-up: refuses a schema this release cannot serve (SchemaMismatchError, one line), else runs
 * the pending migrations where `migrateOnStart`. The later release's expand steps it runs alongside.
 */
export async function prepareSchema(
  db: Kysely<unknown>,
  components: Record<string, Migrations>,
  { migrateOnStart, location }: { migrateOnStart: boolean; location: DatabaseLocation },
): Promise<{ laterExpandSteps: string[] }> {
  const statuses = await Promise.all(
    Object.entries(components).map(([component, list]) => schemaStatus(db, component, list)),
  );
  const problem = schemaProblem(statuses, migrateOnStart);
  if (problem) throw new SchemaMismatchError(problem, statuses);
  if (migrateOnStart)
    for (const [component, list] of Object.entries(components))
      await migrateToLatest(db, component, list, {
        lockTimeoutMs: location.kind === 'postgres' ? START_MIGRATION_LOCK_TIMEOUT_MS : undefined,
      });
  return { laterExpandSteps: named(statuses, (s) => s.unknown) };
}
