import { mkdirSync, readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { createPGlitePool } from './pglite-pool.js';

export type DatabaseLocation =
  /** A PostgreSQL server. */
  | { kind: 'postgres'; url: string; maxConnections?: number }
  /**
   * Embedded PGlite: in a data folder, or in memory when none is given (tests). A test database starts
   * from `templateFile`, a data folder dumped once with its migrations run, instead of an initdb.
   */
  | { kind: 'pglite'; dataDir?: string; templateFile?: string };

/**
 * Opens the database. Both kinds speak PostgreSQL through the same Kysely dialect,
 * so one set of migrations and queries serves both.
 */
export function openDatabase<DB>(
  location: DatabaseLocation,
  /** Told when PostgreSQL drops an idle pooled connection (for the log); nothing else is needed. */
  onIdleConnectionError?: (error: Error) => void,
): Kysely<DB> {
  if (location.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: location.url, max: location.maxConnections ?? 10 });
    // An idle connection the server drops (restart, failover) is only discarded: without a listener
    // pg's 'error' event would take the process down. The next query opens a fresh connection.
    pool.on('error', (error) => onIdleConnectionError?.(error));
    return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  }
  if (location.dataDir) mkdirSync(location.dataDir, { recursive: true });
  const pglite = new PGlite({
    dataDir: location.dataDir,
    loadDataDir: location.templateFile ? new Blob([readFileSync(location.templateFile)]) : undefined,
  });
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool: createPGlitePool(pglite) }) });
}

export function describeLocation(location: DatabaseLocation): string {
  if (location.kind === 'pglite')
    return location.dataDir ? `PGlite in ${location.dataDir}` : 'PGlite in memory';
  const url = new URL(location.url);
  return `PostgreSQL at ${url.host}${url.pathname}`; // never the password
}
