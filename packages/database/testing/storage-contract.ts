import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { openDatabase, type DatabaseLocation } from '../src/database.js';
import type { Migrations } from '../src/migrations.js';
import { createTestDatabase, type TestDatabaseKind } from './index.js';

// The storage contract: every store of the portal and of the identity provider (the code that runs SQL)
// called directly, without HTTP, on each database of testDatabaseKinds() (apps/api/test/storage,
// apps/idp/test/storage). PGlite runs one statement at a time in this process; PostgreSQL is where calls
// really race through a pool of connections and where a connection can be lost: the races and losses
// of these tests are what the suite runs PostgreSQL for. Only they, and the few tests of what needs
// PostgreSQL itself (instances sharing one, its connections cut, production's configuration), loop
// over testDatabaseKinds() or ask for TEST_DATABASE_URL; tests of routes, flows and pages run once, on
// PGlite, and a store's behaviour that differs on PostgreSQL belongs here, not there.

/**
 * Connections of a contract database's pool on PostgreSQL: several, so that racing calls run at once;
 * not more, because a run's test processes, each with a contract database and its `another()` pools,
 * share the server's connections (100 by default), and a full run went past them with 8.
 */
const POOL_CONNECTIONS = 4;

/**
 * How many calls a race starts at once. On PostgreSQL, more than the pool's connections, so that some
 * queue as well. PGlite runs one statement at a time, so its racers only interleave between
 * statements: a dozen (more than any limit a race holds to) meet in the orders thirty would, and each
 * one more costs time and finds nothing more.
 */
export function racersOn(kind: TestDatabaseKind): number {
  return kind === 'postgres' ? 30 : 12;
}

/** `count` calls started at once; their outcomes in call order. */
export function race<T>(count: number, call: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => call(i)));
}

/** How many of `values` are `value`. */
export const countOf = <T>(values: readonly T[], value: T) => values.filter((v) => v === value).length;

export interface ContractDatabase<DB> {
  kind: TestDatabaseKind;
  location: DatabaseLocation;
  db: Kysely<DB>;
  /** Another pool on the same database, as another instance has; on PGlite (one process) the same one. */
  another(): Kysely<DB>;
  /**
   * PostgreSQL only. Another connection takes a lock (`lock`, a statement in its open transaction);
   * `call` runs into it, and while it waits there its connection is cut (pg_terminate_backend). The lock
   * is let go and what the call failed with is returned: whatever it had written is rolled back.
   */
  cutWhileWaiting(lock: string, parameters: unknown[], call: () => Promise<unknown>): Promise<unknown>;
  close(): Promise<void>;
}

/** A fresh database of `kind` with the components' migrations run, private to one contract test. */
export async function openContractDatabase<DB>(
  kind: TestDatabaseKind,
  migrations: Record<string, Migrations>,
): Promise<ContractDatabase<DB>> {
  const database = await createTestDatabase(kind, migrations);
  const location =
    database.location.kind === 'postgres'
      ? // Racers queue for a connection by design (RACERS > POOL_CONNECTIONS): how long they queue
        // depends on how busy the machine is, and is never the test's verdict.
        { ...database.location, maxConnections: POOL_CONNECTIONS, connectionWaitMs: 0 }
      : database.location;
  const pools: Array<Kysely<DB>> = [];
  // A cut connection is told (its client's 'error') after the query on it has failed: until then the
  // pool could lend it again, so a cut is over only once it is told.
  const told: Array<() => void> = [];
  const lost = () => {
    for (const tell of told.splice(0)) tell();
  };
  const open = () => {
    const db = openDatabase<DB>(location, lost);
    pools.push(db);
    return db;
  };
  const db = open();
  return {
    kind,
    location,
    db,
    another: () => (location.kind === 'postgres' ? open() : db),
    cutWhileWaiting: (lock, parameters, call) => {
      if (location.kind !== 'postgres') throw new Error('PGlite has no connection to cut');
      const lostOne = new Promise<void>((resolve) => told.push(resolve));
      return cutWhileWaiting(location.url, lock, parameters, call, lostOne);
    },
    async close() {
      for (const pool of pools) await pool.destroy();
      await database.drop();
    },
  };
}

async function cutWhileWaiting(
  url: string,
  lock: string,
  parameters: unknown[],
  call: () => Promise<unknown>,
  lost: Promise<void>,
): Promise<unknown> {
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  let settled: Promise<{ error: unknown } | { value: unknown }> | undefined;
  try {
    await holder.query('begin');
    await holder.query(lock, parameters);
    let done = false;
    settled = call().then(
      (value: unknown) => ({ value }),
      (error: unknown) => ({ error }),
    );
    void settled.then(() => (done = true));
    // The server shows the call's backend waiting for the lock: its connection is the one to cut.
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (done) throw new Error('the call did not wait for the lock');
      // Inside a transaction the server keeps the list of backends it read first: a call on a connection
      // opened after that (none idle in its pool) would never show. So each look reads it anew.
      await holder.query('select pg_stat_clear_snapshot()');
      const { rows } = await holder.query<{ pid: number }>(
        `select pid from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
      );
      if (rows[0]) {
        await holder.query('select pg_terminate_backend($1)', [rows[0].pid]);
        break;
      }
      if (Date.now() > deadline) throw new Error('the call never waited for the lock');
      await sleep(10);
    }
  } finally {
    await holder.query('rollback').catch(() => {});
    await holder.end();
  }
  const outcome = await settled;
  if (!('error' in outcome)) throw new Error('the call went through although its connection was cut');
  await lost;
  return outcome.error;
}
