import { sql, type Kysely } from 'kysely';
import { isMigrated, type Migrations } from '@customer-core/database';

/** What readiness asks of the database: that it answers, and that every component's schema is current. */
export function readinessRepository<DB>(db: Kysely<DB>, components: Record<string, Migrations>) {
  return {
    /** The first component whose migrations are pending, if any; throws when the database is unreachable. */
    async pendingComponent(): Promise<string | undefined> {
      await sql`select 1`.execute(db);
      for (const [component, migrations] of Object.entries(components)) {
        if (!(await isMigrated(db, component, migrations))) return component;
      }
      return undefined;
    },
  };
}

export type ReadinessRepository = ReturnType<typeof readinessRepository>;
