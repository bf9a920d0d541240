import type { Kysely } from 'kysely';

/** A component's tables as Kysely's withTables takes them (an interface of tables is not a record). */
export type TablesOf<Database> = { [Table in keyof Database]: Database[Table] };

/**
 * The shared database as one component sees it: the same connections, typed by that component's own
 * tables, which the database (typed with every component's tables it holds) must have as the
 * component types them. Kysely's type is invariant in its tables (a transaction's callback takes the
 * whole), so this narrowing is the one place a database changes type.
 */
export function componentView<Tables, Database extends Tables>(db: Kysely<Database>): Kysely<Tables> {
  return db as unknown as Kysely<Tables>;
}
