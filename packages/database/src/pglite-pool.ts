import type { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/** Each instance's turns: every pool over one instance takes its turn in the same queue. */
const queues = new WeakMap<PGlite, { tail: Promise<void> }>();

/**
 * Presents one PGlite instance as a pg-style pool to Kysely's PostgresDialect.
 * PGlite has a single connection, so the pool lends it to one holder at a time, and so do other pools
 * over the same instance: without that, a query from another request would run inside someone else's
 * transaction. `borrowed`: the instance outlives the pool (ending the pool leaves it open).
 */
export function createPGlitePool(pglite: PGlite, { borrowed = false } = {}): PostgresPool {
  const turns = queues.get(pglite) ?? { tail: Promise.resolve() };
  queues.set(pglite, turns);

  const client = (release: () => void): PostgresPoolClient => ({
    // Kysely only streams through a cursor when one is configured; this pool offers none.
    query: (async <R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> => {
      // Parameterless SQL may hold several statements (migrations): only exec() runs those.
      const result =
        parameters.length === 0
          ? (await pglite.exec(sql)).at(-1)
          : await pglite.query<R>(sql, parameters as unknown[]);
      const rows = (result?.rows ?? []) as R[];
      return {
        command: commandOf(sql),
        rowCount: result?.affectedRows ?? rows.length,
        rows,
      };
    }) as PostgresPoolClient['query'],
    release,
  });

  return {
    connect() {
      let release!: () => void;
      const turn = new Promise<void>((resolve) => (release = resolve));
      const acquired = turns.tail.then(() => client(release));
      turns.tail = turns.tail.then(() => turn);
      return acquired;
    },
    async end() {
      await turns.tail;
      if (!borrowed) await pglite.close();
    },
  };
}

function commandOf(sql: string): PostgresQueryResult<unknown>['command'] {
  const keyword = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase();
  return keyword === 'INSERT' || keyword === 'UPDATE' || keyword === 'DELETE' || keyword === 'MERGE'
    ? keyword
    : 'SELECT';
}
