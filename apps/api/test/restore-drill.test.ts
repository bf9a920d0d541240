import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';
import { loanEndpoints } from '@customer-core/contracts';
import { createPostgresDatabase, type PostgresDatabase } from '@customer-core/database/testing';
import { runCli } from '../src/cli/run.js';
import { startTestServer, TEST_SECRETS_KEYS, type TestServer } from '../testing/index.js';
import { call } from './support/loans.js';
import { demoSignInThroughIdp, publicKeyIds } from './support/session.js';

// The backup runbook of the README, as a drill on PostgreSQL: a portal migrated by the migration step,
// its demo borrower signed in; pg_dump, pg_restore into a new database, after-restore, and the portal
// started on the copy, where the borrower signs in again and the session from before the backup is
// over.

const run = promisify(execFile);
const adminUrl = process.env.TEST_DATABASE_URL;
const skip = adminUrl
  ? false
  : 'the restore drill needs PostgreSQL and its pg_dump and pg_restore: set TEST_DATABASE_URL';

/** The operators' command line, in this process, with the portal's settings for `databaseUrl`. */
async function operatorStep(args: string[], databaseUrl: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    args,
    { NODE_ENV: 'test', DATABASE_URL: databaseUrl, SECRETS_KEYS: TEST_SECRETS_KEYS },
    { out: (line) => out.push(line), err: (line) => err.push(line) },
  );
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

/** The key ids the bundled identity provider signs ID tokens with, as it publishes them. */
async function identityProviderKeyIds(baseUrl: string): Promise<string[]> {
  const response = await fetch(`${baseUrl}/oauth2/default/v1/keys`);
  return ((await response.json()) as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid);
}

/**
 * A portal on `database`, which outlives it, started as production starts: migrations are a step. The
 * restored one serves at the same address (its identity provider's issuer, which borrowers are known by).
 */
const portalOn = (database: PostgresDatabase, at: Record<string, string> = {}) =>
  startTestServer(
    'postgres',
    { MIGRATE_ON_START: 'false', ...at },
    {
      database: {
        location: { kind: 'postgres', url: database.url, maxConnections: 5 },
        drop: async () => {},
      },
    },
  );

describe('backup and restore drill (PostgreSQL)', { skip }, () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'customer-core-drill-'));
  const databases: PostgresDatabase[] = [];
  const servers: TestServer[] = [];
  after(async () => {
    for (const server of servers) await server.close();
    for (const database of databases) await database.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('dumps, restores into a new database, retires keys and sessions, and the demo borrower signs in', async () => {
    const original = await createPostgresDatabase(adminUrl!, 'customer_core_drill');
    databases.push(original);
    const migrated = await operatorStep(['migrate', 'up'], original.url);
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.match(migrated.stdout, /^Applying api 0001_borrowers_and_tokens…$/m);
    assert.match(migrated.stdout, /The schema is current\.$/);

    const before = await portalOn(original);
    servers.push(before);
    const tokenBeforeBackup = await demoSignInThroughIdp(before.baseUrl);
    const [keyBeforeBackup] = await publicKeyIds(before.baseUrl);
    const [idTokenKeyBeforeBackup] = await identityProviderKeyIds(before.baseUrl);
    const loansBeforeBackup = await call(before.baseUrl, 'GET', loanEndpoints.loans.path, tokenBeforeBackup);
    assert.equal(loansBeforeBackup.status, 200);

    // The runbook's commands, as an operator types them.
    const dump = path.join(folder, 'portal.dump');
    await run('pg_dump', ['--format=custom', `--file=${dump}`, `--dbname=${original.url}`]);
    const restored = await createPostgresDatabase(adminUrl!, 'customer_core_restored');
    databases.push(restored);
    await run('pg_restore', ['--no-owner', `--dbname=${restored.url}`, dump]);

    const afterRestore = await operatorStep(['after-restore'], restored.url);
    assert.equal(afterRestore.code, 0, afterRestore.stderr);
    assert.match(afterRestore.stdout, new RegExp(`Deleted earlier keys: ${keyBeforeBackup}\\.`));
    assert.match(afterRestore.stdout, /Signed out every borrower \(1\); ended 1 identity-provider session\./);
    assert.match(afterRestore.stdout, /Deleted the identity provider’s keys for ID tokens and cookies/);

    // The restored portal replaces the lost one, at its address.
    await before.close();
    servers.splice(servers.indexOf(before), 1);
    const port = new URL(before.baseUrl).port;
    const portal = await portalOn(restored, { PORT: port, PUBLIC_URL: before.baseUrl });
    servers.push(portal);
    const loans = (token: string) => call(portal.baseUrl, 'GET', loanEndpoints.loans.path, token);
    assert.equal((await loans(tokenBeforeBackup)).status, 401, 'a session from before the restore is over');
    const keys = await publicKeyIds(portal.baseUrl);
    assert.equal(keys.length, 1);
    assert.notEqual(keys[0], keyBeforeBackup, 'the earlier key no longer verifies');
    const idTokenKeys = await identityProviderKeyIds(portal.baseUrl);
    assert.equal(idTokenKeys.length, 1);
    assert.notEqual(idTokenKeys[0], idTokenKeyBeforeBackup, 'ID tokens are signed with a new key');

    const token = await demoSignInThroughIdp(portal.baseUrl);
    const list = await loans(token);
    assert.equal(list.status, 200);
    assert.ok((list.body as { loans: unknown[] }).loans.length > 0);
    assert.deepEqual(list.body, loansBeforeBackup.body, "the demo borrower's loans came back");
  });
});
