import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, test } from 'node:test';
import {
  createTestDatabase,
  freePort,
  testDatabaseKinds,
  type TestDatabase,
} from '@customer-core/database/testing';
import { createPgliteDataFolder } from '@customer-core/database/testing/data-folder';
import { readStandaloneConfig } from '../src/standalone.js';
import { PORTAL, apiToken, oktaApi } from './support.js';

const root = path.resolve(import.meta.dirname, '../../..');

interface Running {
  child: ChildProcess;
  /** Every line written to standard output and standard error, so far. */
  output: string[];
  /** The record logged once the process listens. */
  listening: Promise<Record<string, unknown>>;
}

/** `node apps/idp/src/main.ts` from source, as the build's dist/main.js runs. */
function startMain(env: Record<string, string>): Running {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'apps/idp/src/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const listening = new Promise<Record<string, unknown>>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      output.push(line);
      const record = parseRecord(line);
      if (record?.msg === 'identity provider listening') resolve(record);
    });
    createInterface({ input: child.stderr }).on('line', (line) => output.push(line));
    // 'close', not 'exit': by then every line of output has been read.
    child.once('close', (code) =>
      reject(new Error(`exited (${code}) before listening:\n${output.join('\n')}`)),
    );
  });
  return { child, output, listening };
}

function parseRecord(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

async function stop(running: Running): Promise<number | null> {
  if (running.child.exitCode !== null) return running.child.exitCode;
  const exited = once(running.child, 'close');
  running.child.kill('SIGTERM');
  const [code] = (await exited) as [number | null];
  return code;
}

describe('the identity provider as a process of its own', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'idp-standalone-'));
  const running: Running[] = [];
  const databases: TestDatabase[] = [];
  after(async () => {
    for (const process of running) await stop(process);
    for (const database of databases) await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  for (const kind of testDatabaseKinds()) {
    test(`main starts, serves discovery and the Users API, and stops on SIGTERM (${kind})`, async () => {
      const port = await freePort();
      const token = apiToken();
      // A database none of the provider's migrations have run on: main runs them. On PGlite, a folder
      // made from a test template rather than by an initdb, which is pglite-data-dir.test.ts's subject.
      let database: Record<string, string> = { DATA_DIR: path.join(dataDir, kind) };
      if (kind === 'pglite') await createPgliteDataFolder(database.DATA_DIR!, { idp: {} });
      if (kind === 'postgres') {
        const created = await createTestDatabase('postgres');
        databases.push(created);
        if (created.location.kind !== 'postgres') throw new Error('not PostgreSQL');
        database = { DATABASE_URL: created.location.url };
      }
      // The key that seals its secrets comes from a file, as container platforms hand secrets over.
      const keyFile = path.join(dataDir, `secrets-keys-${kind}`);
      writeFileSync(keyFile, `org:${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
      const main = startMain({
        PORT: String(port),
        PORTAL_URL: PORTAL,
        OKTA_API_TOKENS: `${apiToken()}, ${token}`,
        SECRETS_KEYS_FILE: keyFile,
        LOG_LEVEL: 'info',
        ...database,
      });
      running.push(main);
      const listening = await main.listening;
      const issuer = `http://localhost:${port}/oauth2/default`;
      assert.equal(listening.issuer, issuer);

      const discovery = await fetch(`${issuer}/.well-known/openid-configuration`);
      assert.equal(discovery.status, 200);
      const metadata = (await discovery.json()) as Record<string, unknown>;
      assert.equal(metadata.issuer, issuer);

      const orgUrl = `http://localhost:${port}`;
      const login = `standalone.${kind}@example.com`;
      const created = await oktaApi(orgUrl, 'POST', '/api/v1/users?activate=true', {
        token,
        body: {
          profile: { firstName: 'Stan', lastName: 'Alone', email: login, login },
          credentials: { password: { value: 'Correct-horse-battery-1' } },
        },
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const found = await oktaApi(orgUrl, 'GET', `/api/v1/users/${encodeURIComponent(login)}`, { token });
      assert.equal(found.status, 200);
      assert.equal(found.body.id, created.body.id);
      assert.deepEqual(found.body._links, {
        self: { href: `${orgUrl}/api/v1/users/${String(created.body.id)}` },
      });
      const refused = await oktaApi(orgUrl, 'GET', `/api/v1/users/${encodeURIComponent(login)}`, {
        token: apiToken(),
      });
      assert.equal(refused.status, 401);

      const health = await fetch(`${orgUrl}/healthz`);
      assert.deepEqual(await health.json(), { status: 'ok' });

      assert.equal(await stop(main), 0);
      const output = main.output.join('\n');
      assert.ok(output.includes('shutting down'));
      assert.ok(!output.includes(token), 'the API token reached the log');
    });
  }

  test('reads each secret setting from its file, without the trailing newline', () => {
    const file = (name: string, content: string) => {
      const at = path.join(dataDir, name);
      writeFileSync(at, content, { mode: 0o600 });
      return at;
    };
    const [token, other] = [apiToken(), apiToken()];
    const read = readStandaloneConfig({
      PORTAL_URL: PORTAL,
      DATABASE_URL_FILE: file('database-url', 'postgres://org:pw@db.internal/org\n'),
      OKTA_API_TOKENS_FILE: file('okta-api-tokens', `${token}, ${other}\n`),
      SECRETS_KEYS_FILE: file('secrets-keys', `filed:${randomBytes(32).toString('base64')}\n`),
    });
    assert.ok('config' in read, 'problems' in read ? read.problems : '');
    assert.deepEqual(read.config.database, { kind: 'postgres', url: 'postgres://org:pw@db.internal/org' });
    assert.deepEqual(read.config.apiTokens, [token, other]);
    assert.deepEqual(
      read.config.secretKeys.map((key) => key.id),
      ['filed'],
    );
  });

  test('main refuses to start without its required variables, naming them', async () => {
    const main = startMain({ PORT: 'eighty', OKTA_API_TOKENS: 'short' });
    running.push(main);
    await assert.rejects(main.listening, /exited \(1\) before listening/);
    const output = main.output.join('\n');
    assert.match(output, /PORTAL_URL: is required/);
    assert.match(output, /OKTA_API_TOKENS: each token needs at least 32 characters/);
    assert.match(output, /SECRETS_KEYS: is required/);
    assert.match(output, /PORT: /);
    assert.ok(!output.includes('short'), 'a refused token is not echoed');
  });
});
