import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { openDatabase } from '@customer-core/database';
import { createTestDatabase, testDatabaseKinds } from '@customer-core/database/testing';
import { createPgliteDataFolder } from '@customer-core/database/testing/data-folder';
import { idpMigrations } from '@customer-core/idp';
import type { AuditRecord } from '../src/audit/audit-record.js';
import { runCli } from '../src/cli/run.js';
import { apiMigrations } from '../src/db/migrations.js';
import type { ApiDatabase } from '../src/db/schema.js';
import { TEST_SECRETS_KEYS } from '../testing/index.js';

// The operators' steps on the database itself: migrate status and up (progress, the lock timeout,
// a bad setting told as the server tells it), and after-restore on the embedded database (the
// restore drill runs it on PostgreSQL).

const LAST = Object.keys(apiMigrations).at(-1)!;
/** A database one release behind: the API's last migration not run yet. */
const BEHIND = { api: Object.fromEntries(Object.entries(apiMigrations).slice(0, -1)), idp: idpMigrations };

async function cli(args: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    args,
    { NODE_ENV: 'test', SECRETS_KEYS: TEST_SECRETS_KEYS, ...env },
    { out: (line) => out.push(line), err: (line) => err.push(line) },
  );
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

const folders: string[] = [];
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** The settings of a portal on a database one release behind, of the given kind; and its drop. */
async function portalBehind(
  kind: 'pglite' | 'postgres',
): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'customer-core-migrate-'));
    folders.push(dataDir);
    await createPgliteDataFolder(path.join(dataDir, 'pglite'), BEHIND);
    return { env: { DATA_DIR: dataDir }, drop: async () => {} };
  }
  const database = await createTestDatabase('postgres', BEHIND);
  if (database.location.kind !== 'postgres') throw new Error('not PostgreSQL');
  return { env: { DATABASE_URL: database.location.url }, drop: database.drop };
}

for (const kind of testDatabaseKinds()) {
  describe(`migrate (${kind})`, () => {
    it('lists what is pending, applies it with progress, and then has nothing to do', async () => {
      const portal = await portalBehind(kind);
      try {
        const status = await cli(['migrate', 'status'], portal.env);
        assert.equal(status.code, 0, status.stderr);
        assert.match(status.stdout, new RegExp(`^api\\s+${LAST}\\s+pending$`, 'm'));
        assert.match(
          status.stdout,
          /^api\s+0001_borrowers_and_tokens\s+applied \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/m,
        );
        assert.match(status.stdout, /^1 pending: apply them with npm run cli -- migrate up\.$/m);

        const up = await cli(['migrate', 'up'], portal.env);
        assert.equal(up.code, 0, up.stderr);
        assert.match(
          up.stdout,
          new RegExp(
            `^Applying api ${LAST}…\\n  done in \\d+ ms\\nApplied 1 migration\\. The schema is current\\.$`,
            'm',
          ),
        );

        // Each run opens the embedded database anew (a second or so): once more is enough on PostgreSQL.
        if (kind === 'postgres') {
          const again = await cli(['migrate', 'up'], portal.env);
          assert.match(again.stdout, /^Nothing to apply: the schema is current\.$/m);
        }
        assert.match((await cli(['migrate', 'status'], portal.env)).stdout, /^Current: nothing pending\.$/m);
      } finally {
        await portal.drop();
      }
    });
  });
}

describe('migrate: what it refuses', () => {
  it('names a bad setting, as the server would, and a wrong command line', async () => {
    const bad = await cli(['migrate', 'status'], { DATABASE_URL: 'mysql://db/portal' });
    assert.equal(bad.code, 1);
    assert.match(
      bad.stderr,
      /^Error: The portal's settings: Invalid configuration:\n {2}- DATABASE_URL: must be a postgres:\/\/ URL$/,
    );
    for (const args of [['migrate'], ['migrate', 'down'], ['migrate', 'up', 'now']]) {
      const wrong = await cli(args, {});
      assert.equal(wrong.code, 2, args.join(' '));
      assert.match(wrong.stderr, /migrate takes status or up/);
    }
    assert.match((await cli(['migrate', 'up', '--lock-timeout', '0'], {})).stderr, /--lock-timeout must be/);
  });

  it(
    'gives up, saying why, when another migration holds the lock past --lock-timeout',
    { skip: testDatabaseKinds().includes('postgres') ? false : 'needs PostgreSQL: set TEST_DATABASE_URL' },
    async () => {
      const portal = await portalBehind('postgres');
      const other = new pg.Client({ connectionString: portal.env.DATABASE_URL! });
      await other.connect();
      try {
        // Another operator's (or instance's) migration of the same schema, under way.
        await other.query(`select pg_advisory_lock(hashtext('api_migration'))`);
        const up = await cli(['migrate', 'up', '--lock-timeout', '1'], portal.env);
        assert.equal(up.code, 1);
        assert.match(
          up.stderr,
          /^Error: migrate up: Another migration of the api schema held the lock for over 1 second; try again when it has finished\.$/,
        );
        await other.query(`select pg_advisory_unlock(hashtext('api_migration'))`);
        assert.equal((await cli(['migrate', 'up', '--lock-timeout', '1'], portal.env)).code, 0);
      } finally {
        await other.end();
        await portal.drop();
      }
    },
  );
});

describe('after-restore (pglite)', () => {
  it('replaces the signing key and cuts off every borrower', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'customer-core-restored-'));
    folders.push(dataDir);
    await createPgliteDataFolder(path.join(dataDir, 'pglite'), { api: apiMigrations, idp: idpMigrations });
    const first = await cli(['after-restore', '--reason', 'Restore drill, ticket 9'], { DATA_DIR: dataDir });
    assert.equal(first.code, 0, first.stderr);
    const kid = /signed with key (\S+)\.$/m.exec(first.stdout)?.[1];
    assert.ok(kid, first.stdout);
    const second = await cli(['after-restore'], { DATA_DIR: dataDir });
    assert.match(second.stdout, new RegExp(`^Deleted earlier keys: ${kid}\\.$`, 'm'));
    assert.doesNotMatch(second.stdout, new RegExp(`signed with key ${kid}`));

    // Each run is in the audit trail: who ran it on which machine, why, and what it did.
    const db = openDatabase<ApiDatabase>({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
    try {
      const records = (await db.selectFrom('audit_record').select('entry').orderBy('seq').execute()).map(
        (row) => JSON.parse(row.entry) as AuditRecord,
      );
      assert.deepEqual(
        records.map((record) => [record.action, record.role, record.reason]),
        [
          ['after-restore', 'operator', 'Restore drill, ticket 9'],
          ['after-restore', 'operator', null],
        ],
      );
      assert.match(records[0]!.actor, /^cli:\S+@\S+$/);
      assert.equal((records[0]!.after as { activeKid: string }).activeKid, kid);
    } finally {
      await db.destroy();
    }
  });
});
