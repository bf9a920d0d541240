import { sql, type Kysely } from 'kysely';

/** What the standalone provider's health check asks of the database: that it answers. */
export function readinessRepository<DB>(db: Kysely<DB>) {
  return {
    /** Throws when the database is unreachable. */
    async ping(): Promise<void> {
      await sql`select 1`.execute(db);
    },
  };
}
