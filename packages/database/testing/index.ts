import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type DatabaseLocation } from '../src/database.js';
import { openPglite } from '../src/pglite-database.js';
import { migrateToLatest, type Migrations } from '../src/migrations.js';
import { createPGlitePool } from '../src/pglite-pool.js';

export { freePort } from '../src/free-port.js';

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

/**
 * A fresh database of the given kind, private to one test, with the components' migrations run.
 * Both kinds start from a template made once per set of migrations: PGlite from a dumped data folder
 * kept in the temporary folder (a fraction of an initdb plus migrations), PostgreSQL as a copy of a
 * template database on the server (a file copy instead of some thirty migrations). A PGlite database
 * is the process's instance of that template when no other holder has it (emptied, see
 * `lendProcessPglite`), else an instance of its own for whoever opens the location.
 */
export async function createTestDatabase(
  kind: TestDatabaseKind,
  migrations: Record<string, Migrations> = {},
  /**
   * PGlite: an instance of its own, never the process's (a test that changes the schema leaves it to
   * no later holder); every pool over its location shares it, and drop closes it.
   */
  { own = false }: { own?: boolean } = {},
): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const templateFile = await pgliteTemplate(migrations);
    if (own) {
      const instance = openPglite({ kind: 'pglite', templateFile });
      return { location: { kind: 'pglite', instance }, drop: () => instance.close() };
    }
    return (
      (await lendProcessPglite(templateFile)) ?? {
        location: { kind: 'pglite', templateFile },
        drop: async () => {},
      }
    );
  }

  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const template = Object.keys(migrations).length ? await postgresTemplate(adminUrl, migrations) : undefined;
  const { url, drop } = await createPostgresDatabase(adminUrl, 'customer_core_test', template);
  return { location: { kind: 'postgres', url, maxConnections: 5 }, drop };
}

async function migrate(location: DatabaseLocation, migrations: Record<string, Migrations>) {
  const db = openDatabase(location);
  try {
    for (const [component, list] of Object.entries(migrations)) await migrateToLatest(db, component, list);
  } finally {
    await db.destroy();
  }
}

/** A test process's PGlite instance of a template, and whether a holder has it now. */
interface ProcessPglite {
  instance: PGlite;
  lent: boolean;
  /** As loaded from the template: nothing to empty. */
  pristine: boolean;
}
const processPglites = new Map<string, ProcessPglite>();

/**
 * Closed after the process's last test (a hook of the root test, so after every file of the process):
 * a loaded instance keeps one of PostgreSQL's timers running, which would keep the process from
 * ending. Only a process of node's test runner has that moment; anywhere else (a script, a test file
 * run by plain node) each holder gets an instance of its own, which its database closes.
 */
const KEEPS_PROCESS_PGLITES = process.env.NODE_TEST_CONTEXT !== undefined;
if (KEEPS_PROCESS_PGLITES) after(closeProcessPglites);
/**
 * Whether that hook has run. It runs whenever the root has no test left, which would be between two
 * files when one ends before the next is imported; the test runner's groups (scripts/run-tests.mjs)
 * import every file first. Holders after it get instances of their own, which nothing would close else.
 */
let processPglitesClosed = false;

/**
 * The process's PGlite instance of `templateFile`, lent until the returned database is dropped; none
 * while another holder has it. Loading a template costs most of a second of CPU, and a test process
 * opens a database for file after file, server after server. So one instance is loaded per process
 * and emptied for each holder instead: every row deleted but the migrations' bookkeeping, as a template
 * has no rows but those. Servers that share it (a second instance, a restart) see one database.
 */
async function lendProcessPglite(templateFile: string): Promise<TestDatabase | undefined> {
  if (!KEEPS_PROCESS_PGLITES || processPglitesClosed) return undefined;
  let held = processPglites.get(templateFile);
  if (!held) {
    held = { instance: openPglite({ kind: 'pglite', templateFile }), lent: false, pristine: true };
    processPglites.set(templateFile, held);
  }
  if (held.lent) return undefined;
  const lent = held;
  lent.lent = true;
  const location = { kind: 'pglite', instance: lent.instance } as const;
  try {
    if (!lent.pristine) await emptyTables(location);
    lent.pristine = false;
  } catch (error) {
    // Not known to be empty: no later holder gets it.
    processPglites.delete(templateFile);
    throw error;
  }
  let returned = false;
  return {
    location,
    drop: async () => {
      if (returned) return;
      returned = true;
      lent.lent = false;
    },
  };
}

async function closeProcessPglites() {
  processPglitesClosed = true;
  const held = [...processPglites.values()];
  processPglites.clear();
  for (const { instance } of held) await instance.close().catch(() => {});
}

/**
 * Deletes every row but the migrations' bookkeeping (`<component>_migration`, `…_migration_lock`) and
 * restarts the sequences, in one statement. DELETE with foreign keys unchecked (replica role: every row
 * goes anyway) costs a tenth of a TRUNCATE, which makes new files for every table and index.
 */
async function emptyTables(location: DatabaseLocation) {
  // Through a pool over the instance: it waits for the turn of any pool a previous holder left open.
  const db = openDatabase(location);
  try {
    await sql`
      do $$
      declare t text;
      begin
        set local session_replication_role = replica;
        for t in select quote_ident(schemaname) || '.' || quote_ident(tablename) from pg_tables
                  where schemaname not in ('pg_catalog', 'information_schema')
                    and tablename !~ '_migration(_lock)?$' loop
          execute 'delete from ' || t;
        end loop;
        perform setval(seqrelid, seqstart, false) from pg_sequence;
      end $$`.execute(db);
  } finally {
    await db.destroy();
  }
}

const TEMPLATE_PREFIX = 'customer-core-pglite-';

/** Named by what the migrations do, so an edited or added migration makes a new template. */
function templateKey(migrations: Record<string, Migrations>): string {
  const recipe = Object.entries(migrations).map(([component, list]) => [
    component,
    Object.entries(list).map(([name, migration]) => [name, String(migration.up)]),
  ]);
  return createHash('sha256').update(JSON.stringify(recipe)).digest('hex').slice(0, 20);
}

const POSTGRES_TEMPLATE_PREFIX = 'customer_core_template_';

/**
 * The name of a database on the server with these migrations run, made on first use. Test runs at
 * once take turns (an advisory lock), and a template appears under its name only when complete (made
 * aside, then renamed), so a run that died half-way leaves nothing another would copy.
 */
async function postgresTemplate(adminUrl: string, migrations: Record<string, Migrations>): Promise<string> {
  const name = `${POSTGRES_TEMPLATE_PREFIX}${templateKey(migrations)}`;
  return withAdmin(adminUrl, async (admin) => {
    await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
    try {
      const { rows } = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (rows.length === 0) {
        const made = await createPostgresDatabase(adminUrl, `${name}_partial`);
        // When it was made, kept through the rename: templates of other migrations (and partial ones
        // of a run that died) are removed a day later, never one another run is still making.
        await admin.query(`comment on database ${made.name} is '${new Date().toISOString()}'`);
        try {
          await migrate({ kind: 'postgres', url: made.url, maxConnections: 1 }, migrations);
          await waitUntilUnused(admin, made.name);
          await admin.query(`alter database ${made.name} rename to ${name}`);
        } catch (error) {
          await made.drop();
          throw error;
        }
        await removeStalePostgresTemplates(admin, name);
      }
    } finally {
      await admin.query('select pg_advisory_unlock(hashtext($1))', [name]);
    }
    return name;
  });
}

/** Templates begun over a day ago for other migrations (older branches, edited migrations). */
async function removeStalePostgresTemplates(admin: pg.Client, current: string) {
  const { rows } = await admin.query<{ name: string }>(
    `select datname as name from pg_database
      where datname like $1 and datname <> $2
        and coalesce(shobj_description(oid, 'pg_database'), '') < $3`,
    [`${POSTGRES_TEMPLATE_PREFIX}%`, current, new Date(Date.now() - 24 * 3600 * 1000).toISOString()],
  );
  for (const { name } of rows) await admin.query(`drop database if exists ${name} with (force)`);
}

/** The dumped data folder of a PGlite database with these migrations run, made on first use. */
export async function pgliteTemplate(migrations: Record<string, Migrations>): Promise<string> {
  const file = templateFileOf(migrations);
  if (existsSync(file)) return file;

  // Only the template without migrations runs initdb; every other starts from it, loaded in a sixth of
  // the CPU (1.6 s against 9 to 10 s on a slow day; a test run makes about seven templates).
  const pglite =
    Object.keys(migrations).length === 0
      ? new PGlite()
      : openPglite({ kind: 'pglite', templateFile: await pgliteTemplate({}) });
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: createPGlitePool(pglite) }) });
  try {
    // Started first: dumpDataDir takes PGlite's turn and then waits for the start, whose own queries
    // wait for that turn (with no migrations, nothing else would have started it).
    await pglite.waitReady;
    for (const [component, list] of Object.entries(migrations)) await migrateToLatest(db, component, list);
    const dump = await pglite.dumpDataDir('none');
    // Written aside and renamed: test files running at once never read half a template.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await db.destroy();
  }
  removeStaleTemplates(file);
  return file;
}

const templateFileOf = (migrations: Record<string, Migrations>) =>
  path.join(tmpdir(), `${TEMPLATE_PREFIX}${templateKey(migrations)}.tar`);

/** The folder a template is loaded into once, beside its file (data-folder.ts). */
export const templateFolderOf = (templateFile: string) => templateFile.replace(/\.tar$/, '.folder');

/**
 * Templates of migrations no test has used for a day (older branches, edited migrations), the folders
 * made from them, and what a run that ended halfway left of either.
 */
function removeStaleTemplates(current: string) {
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  const kept = new Set([current, templateFolderOf(current), templateFileOf({})]);
  for (const name of readdirSync(tmpdir())) {
    const file = path.join(tmpdir(), name);
    if (!name.startsWith(TEMPLATE_PREFIX) || kept.has(file)) continue;
    try {
      if (statSync(file).atimeMs < dayAgo) rmSync(file, { recursive: true, force: true });
    } catch {
      // Removed by another test run meanwhile.
    }
  }
}

export interface PostgresDatabase {
  url: string;
  name: string;
  serverVersion: string;
  drop(): Promise<void>;
}

/**
 * A fresh database on the server of `adminUrl` (tests, benchmarks), named `<prefix>_<random>`: empty,
 * or a copy of `template`.
 */
export async function createPostgresDatabase(
  adminUrl: string,
  prefix: string,
  template?: string,
): Promise<PostgresDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const serverVersion = await withAdmin(adminUrl, async (admin) => {
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
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
      await withAdmin(adminUrl, async (admin) => {
        // A closed pool's sockets may still be closing (pg resolves end() before they have): forcing
        // the drop then would cut a closing connection, whose client has no error listener left and
        // throws. So wait for the server to see them gone, then force what is really left.
        await waitUntilUnused(admin, name);
        await admin.query(`drop database if exists ${name} with (force)`);
      });
    },
  };
}

/** Until the server has no connection to `name` left, for at most five seconds. */
async function waitUntilUnused(admin: pg.Client, name: string) {
  for (let waited = 0; waited < 5_000; waited += 20) {
    const { rows } = await admin.query<{ n: number }>(
      'select count(*)::int as n from pg_stat_activity where datname = $1',
      [name],
    );
    if (rows[0]?.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
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
