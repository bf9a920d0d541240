import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DatabaseLocation } from './database.js';

export type TestDatabaseKind = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL names a server. */
export function testDatabaseKinds(): TestDatabaseKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestDatabase {
  location: DatabaseLocation;
  /** Removes the database (PostgreSQL); nothing to do for in-memory PGlite. */
  drop(): Promise<void>;
}

/** A fresh, empty database of the given kind, private to one test file. */
export async function createTestDatabase(kind: TestDatabaseKind): Promise<TestDatabase> {
  if (kind === 'pglite') return { location: { kind: 'pglite' }, drop: async () => {} };

  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const { url, drop } = await createPostgresDatabase(adminUrl, 'customer_core_test');
  return { location: { kind: 'postgres', url, maxConnections: 5 }, drop };
}

export interface PostgresDatabase {
  url: string;
  name: string;
  serverVersion: string;
  drop(): Promise<void>;
}

/** A fresh, empty database on the server of `adminUrl` (tests, benchmarks), named `<prefix>_<random>`. */
export async function createPostgresDatabase(adminUrl: string, prefix: string): Promise<PostgresDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const serverVersion = await withAdmin(adminUrl, async (admin) => {
    await admin.query(`create database ${name}`);
    const { rows } = await admin.query<{ v: string }>(`select current_setting('server_version') as v`);
    return rows[0]?.v ?? 'unknown';
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    serverVersion,
    drop: async () => {
      await withAdmin(adminUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`));
    },
  };
}

async function withAdmin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
