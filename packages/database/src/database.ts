import { Kysely, PostgresDialect, type PostgresPool } from 'kysely';
import pg from 'pg';
import { statementName } from './prepared-statements.js';
import type { PgliteLocation } from './pglite-database.js';

export type DatabaseLocation =
  /**
   * A PostgreSQL server. `listenUrl`: where LISTEN connects, when the pool goes through a pooler in
   * transaction mode (PgBouncer), which cannot hold a LISTEN; by default `url`.
   */
  | {
      kind: 'postgres';
      url: string;
      maxConnections?: number;
      listenUrl?: string;
      /** How long a query waits for a free connection before failing (0: as long as it takes). */
      connectionWaitMs?: number;
      /**
       * Statements with parameters are prepared by name (prepared-statements.ts), unless false: a pooler in
       * transaction mode that does not keep prepared statements (PgBouncer before 1.21, or without
       * `max_prepared_statements`) needs them unnamed.
       */
      preparedStatements?: boolean;
    }
  /**
   * Embedded PGlite: in a data folder, or in memory when none is given (tests). A test database starts
   * from `templateFile`, a data folder dumped once with its migrations run, instead of an initdb; or is
   * an `instance` already open (a test process's, emptied for each of its servers in turn), which the
   * database only borrows: closing it leaves the instance open.
   */
  | PgliteLocation;

/** Makes what `openDatabase` needs at a location: an embedded data folder is created (once) here. */
export async function prepareDatabase(location: DatabaseLocation): Promise<void> {
  if (location.kind !== 'pglite' || !location.dataDir) return;
  const { createPgliteDataDir } = await import('./pglite-database.js');
  await createPgliteDataDir(location.dataDir);
}

/** The PostgreSQL pool under each database opened here (PGlite's has no connections to count). */
const pools = new WeakMap<object, pg.Pool>();

/** The connections of a PostgreSQL database's pool; null for PGlite. */
export function poolUsage(db: object): { inUse: number; idle: number; waiting: number; max: number } | null {
  const pool = pools.get(db);
  if (!pool) return null;
  return {
    inUse: pool.totalCount - pool.idleCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
    max: pool.options.max ?? 10,
  };
}

/** Statements sent to the database through each database opened here (see `countingPool`). */
interface StatementCount {
  sent: number;
  /** With parameters and not prepared (PostgreSQL only): parsed and planned again at every call. */
  unprepared: number;
}
const statementCounts = new WeakMap<object, StatementCount>();

/**
 * How many statements this database has sent so far: every round trip to PostgreSQL or PGlite,
 * transaction control (BEGIN, COMMIT) included. Counted where the SQL leaves for the server, so it
 * holds whatever the caller (Kysely, a raw `sql` template, a transaction) built; null for a database
 * not opened by `openDatabase`.
 */
export function statementsSent(db: object): number | null {
  return statementCounts.get(db)?.sent ?? null;
}

/**
 * How many statements with parameters this PostgreSQL database has sent unprepared (prepared-statements.ts
 * says which: one that reads every column, or past a connection's room); null for PGlite or a
 * database not opened by `openDatabase`.
 */
export function statementsUnprepared(db: object): number | null {
  return pools.has(db) ? (statementCounts.get(db)?.unprepared ?? null) : null;
}

/**
 * A query's arguments as pg takes them: named when they are SQL with parameters that may be prepared,
 * and counted when such SQL goes unnamed.
 */
function named(client: object, args: unknown[], count: StatementCount, prepare: boolean): unknown[] {
  const [text, values] = args;
  if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0) return args;
  const name = prepare ? statementName(client, text) : undefined;
  if (name !== undefined) return [{ text, values, name }];
  count.unprepared++;
  return args;
}

/**
 * The pool Kysely is given: the real one, each client's `query` counted on its way out; on PostgreSQL
 * (`prepare` given) named (prepared) when `prepare` says so. PGlite's pool prepares by itself.
 */
function countingPool(pool: PostgresPool, count: StatementCount, prepare?: boolean): PostgresPool {
  return {
    async connect() {
      const client = await pool.connect();
      return {
        // Both of its forms (SQL and parameters, or a cursor) are one statement sent.
        query: ((...args: unknown[]) => {
          count.sent++;
          return (client.query as (...args: unknown[]) => unknown)(
            ...(prepare === undefined ? args : named(client, args, count, prepare)),
          );
        }) as typeof client.query,
        release: () => client.release(),
      };
    },
    end: () => pool.end(),
  };
}

/**
 * Opens the database. Both kinds speak PostgreSQL through the same Kysely dialect,
 * so one set of migrations and queries serves both.
 */
export function openDatabase<DB>(
  location: DatabaseLocation,
  /** Told when PostgreSQL drops a pooled connection (for the log); nothing else is needed. */
  onConnectionLost?: (error: Error) => void,
  /**
   * For a migration step: no limit on a statement's time (a migration may rewrite a large table);
   * what a migration may wait for a lock is bounded instead (see migrations.ts).
   */
  { forMigrations = false }: { forMigrations?: boolean } = {},
): Kysely<DB> {
  if (location.kind === 'postgres') {
    const pool = new pg.Pool({
      ...postgresTimeouts,
      ...(forMigrations ? { statement_timeout: 0, query_timeout: undefined } : {}),
      ...(location.connectionWaitMs === undefined
        ? {}
        : { connectionTimeoutMillis: location.connectionWaitMs }),
      connectionString: location.url,
      max: location.maxConnections ?? 10,
    });
    // A connection the server drops (restart, failover, pg_terminate_backend) emits 'error' on its
    // client. pg-pool listens only while the client is idle (and then re-emits on the pool); a client
    // checked out by Kysely has no listener of its own, and the event would take the process down.
    // So every client gets one for its whole life: the query in flight fails (the caller answers 503),
    // the dead client is discarded when released, and the next query opens a fresh connection.
    pool.on('connect', (client) => client.on('error', (error) => onConnectionLost?.(error)));
    pool.on('error', () => {}); // the same error, re-emitted for an idle client: already told above
    const count = { sent: 0, unprepared: 0 };
    const prepare = location.preparedStatements ?? true;
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: countingPool(pool, count, prepare) }) });
    pools.set(db, pool);
    statementCounts.set(db, count);
    return db;
  }
  const pool = loadedOnFirstUse(async () => (await import('./pglite-database.js')).pglitePool(location));
  const count = { sent: 0, unprepared: 0 };
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: countingPool(pool, count) }) });
  statementCounts.set(db, count);
  return db;
}

/**
 * A pool made when it is first asked for a connection. PGlite is loaded only by a database that uses
 * it: a server on PostgreSQL never loads its modules (README: Operating it, memory).
 */
function loadedOnFirstUse(load: () => Promise<PostgresPool>): PostgresPool {
  let pool: Promise<PostgresPool> | undefined;
  return {
    connect: async () => (await (pool ??= load())).connect(),
    // A pool that could not be loaded has nothing to end: its error went to each connection asked for.
    end: async () => (await pool?.catch(() => undefined))?.end(),
  };
}

/**
 * How long to wait for PostgreSQL: a new connection (else the query fails at once rather than queueing
 * behind an unreachable server), a statement on the server (statement_timeout), and an answer on the
 * socket (query_timeout, for a server that stopped answering without closing the connection). No
 * request of the portal needs more than a fraction of a second; these only bound what a fault costs.
 */
export const postgresTimeouts = {
  connectionTimeoutMillis: 5_000,
  statement_timeout: 15_000,
  query_timeout: 20_000,
  keepAlive: true,
} as const;

export function describeLocation(location: DatabaseLocation): string {
  if (location.kind === 'pglite')
    return location.dataDir ? `PGlite in ${location.dataDir}` : 'PGlite in memory';
  const url = new URL(location.url);
  return `PostgreSQL at ${url.host}${url.pathname}`; // never the password
}
