// `npm run image:check`: builds the Dockerfile with podman and runs the image twice. As production
// runs it (compose.yaml's order): PostgreSQL, `migrate up` as a one-shot container, then the portal
// with its secrets as files; it must turn healthy by its own HEALTHCHECK, serve the portal as a user of
// its own with npm start's memory settings, and stop cleanly on SIGTERM. Then as a trial: the embedded
// database in the image's data folder, where the demo borrower signs in through the bundled identity
// provider and reads their loans. Everything it started is removed at the end; the base image and
// podman's layer cache are kept for the next run (`--clean` removes them too).
//
// Not part of `npm test`: a first run downloads a Debian root and every npm package (minutes).
// Settings: IMAGE_BASE (a base image to use instead of the local Debian one, e.g.
// node:20-bookworm-slim where a registry is reachable), DEBIAN_MIRROR, and IMAGE_CHECK_DATABASE_URL
// (else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres) to create a database on.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { authEndpoints, loanEndpoints, LoanListSchema } from '@customer-core/contracts';
import { createPostgresDatabase, freePort, type PostgresDatabase } from '@customer-core/database/testing';
import { signInThroughIdp, TEST_SECRETS_KEYS } from '@customer-core/api/testing';
import { DEMO_BORROWER } from '../../apps/api/src/loans/demo-borrower.js';
import { SERVER_ENV, SERVER_NODE_ARGS } from '../../scripts/server-env.mjs';
import {
  ensureBaseImage,
  ensureTools,
  podman,
  podmanStatus,
  runLogged,
  runtimeOptions,
  type PodmanOptions,
} from './podman.js';

const root = path.resolve(import.meta.dirname, '../..');
const IMAGE = 'localhost/customer-core:image-check';
const LOCAL_BASE = `localhost/customer-core-base:node${process.versions.node}`;
const base = process.env.IMAGE_BASE ?? LOCAL_BASE;
const mirror = process.env.DEBIAN_MIRROR ?? 'http://deb.debian.org/debian';
const adminUrl =
  process.env.IMAGE_CHECK_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const clean = process.argv.includes('--clean');

const containers: string[] = [];
const databases: PostgresDatabase[] = [];
const folders: string[] = [];

/** A step: its label, then its duration (and a note) when it ends. */
async function step<T>(label: string, work: () => Promise<T>, note?: (result: T) => string): Promise<T> {
  process.stdout.write(`${label}…`);
  const started = performance.now();
  try {
    const result = await work();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stdout.write(` ${seconds} s${note ? ` (${note(result)})` : ''}\n`);
    return result;
  } catch (error) {
    process.stdout.write(` failed after ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    throw error;
  }
}

/** Asks until `ready` holds, or fails after `seconds` with what `describe` says of the last answer. */
async function waitFor(
  what: string,
  seconds: number,
  ready: () => Promise<boolean>,
  describe: () => Promise<string>,
) {
  const deadline = performance.now() + seconds * 1000;
  while (!(await ready())) {
    if (performance.now() > deadline)
      throw new Error(`${what}: not within ${seconds} s.\n${await describe()}`);
    await delay(250);
  }
}

const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2000) }).then(
    (response) => response.ok,
    () => false,
  );

/** Settings and secrets (as *_FILE, read from a mounted folder) of the production run. */
function secretsFolder(databaseUrl: string): string {
  const folder = mkdtempSync('/var/tmp/customer-core-secrets-');
  folders.push(folder);
  const secrets = {
    'database-url': databaseUrl,
    'secrets-keys': TEST_SECRETS_KEYS,
    'smtp-url': 'smtp://127.0.0.1:2525',
  };
  for (const [name, value] of Object.entries(secrets)) writeFileSync(path.join(folder, name), `${value}\n`);
  // Readable by the image's user (uid 10001), as a platform's secret mount is.
  chmodSync(folder, 0o755);
  for (const name of Object.keys(secrets)) chmodSync(path.join(folder, name), 0o644);
  return folder;
}

async function productionRun(options: PodmanOptions) {
  const database = await createPostgresDatabase(adminUrl, 'customer_core_image');
  databases.push(database);
  const port = await freePort();
  const secrets = secretsFolder(database.url);
  const settings = [
    ...['--network', 'host', '--volume', `${secrets}:/run/secrets:ro`],
    ...['--env', 'DATABASE_URL_FILE=/run/secrets/database-url'],
    ...['--env', 'SECRETS_KEYS_FILE=/run/secrets/secrets-keys'],
    ...['--env', 'SMTP_URL_FILE=/run/secrets/smtp-url'],
    ...['--env', 'PUBLIC_URL=https://portal.example.test', '--env', `PORT=${port}`],
    ...['ACH_IMMEDIATE_DESTINATION', 'ACH_ODFI_ROUTING'].flatMap((name) => ['--env', `${name}=091000019`]),
    ...['ACH_IMMEDIATE_ORIGIN', 'ACH_COMPANY_ID'].flatMap((name) => ['--env', `${name}=1123456789`]),
  ];

  await step('Migrating as a one-shot container (migrate up)', async () => {
    const migrate = await podmanStatus([
      ...options.global,
      'run',
      '--rm',
      ...options.container,
      ...settings,
      IMAGE,
      ...['node', 'apps/api/dist/cli/main.js', 'migrate', 'up'],
    ]);
    assert.equal(migrate.code, 0, migrate.output);
    assert.match(migrate.output, /The schema is current\./);
  });

  const name = `customer-core-check-${port}`;
  await step('Starting the portal as production runs it', async () => {
    await podman([
      ...options.global,
      'run',
      '--detach',
      '--name',
      name,
      ...options.container,
      ...settings,
      IMAGE,
    ]);
    containers.push(name);
    await waitFor(
      `/readyz on port ${port}`,
      60,
      () => answers(`http://127.0.0.1:${port}/readyz`),
      () => logsOf(options, name),
    );
  });

  await step('Checking its health, user, settings and pages', async () => {
    // The image's own HEALTHCHECK, run as the engine runs it (podman here has no systemd to time it).
    const health = await podmanStatus([...options.global, 'healthcheck', 'run', name]);
    assert.equal(health.code, 0, `HEALTHCHECK failed: ${health.output}`);
    const uid = await podman([...options.global, 'exec', name, 'id', '-u']);
    assert.equal(uid, '10001', `runs as uid ${uid}, not the image's user`);
    const command = (await podman([...options.global, 'exec', name, 'cat', '/proc/1/cmdline'])).split('\0');
    for (const flag of SERVER_NODE_ARGS)
      assert.ok(command.includes(flag), `${flag} missing from ${command.join(' ')}`);
    const environment = (await podman([...options.global, 'exec', name, 'cat', '/proc/1/environ'])).split(
      '\0',
    );
    for (const [key, value] of Object.entries(SERVER_ENV))
      assert.ok(
        environment.includes(`${key}=${value}`),
        `${key}=${value} missing from the server's environment`,
      );
    const page = await fetch(`http://127.0.0.1:${port}/auth/login`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<div id="root">/);
    // Production dependencies only: no compiler, bundler, test tool or the portal's browser packages.
    for (const absent of ['typescript', 'vite', 'tsx', 'eslint', 'react', 'smtp-server']) {
      const found = await podmanStatus([
        ...options.global,
        'exec',
        name,
        ...['node', '-e', `require.resolve(${JSON.stringify(absent)}, { paths: ['/app', '/app/apps/api'] })`],
      ]);
      assert.notEqual(found.code, 0, `${absent} is in the image`);
    }
  });

  await step(
    'Stopping it with SIGTERM',
    async () => {
      const started = performance.now();
      await podman([...options.global, 'stop', '--time', '15', name]);
      const seconds = (performance.now() - started) / 1000;
      const exitCode = await podman([...options.global, 'inspect', name, '--format', '{{.State.ExitCode}}']);
      assert.equal(exitCode, '0', `exit code ${exitCode}:\n${await logsOf(options, name)}`);
      assert.match(await logsOf(options, name), /"signal":"SIGTERM","msg":"shutting down"/);
      return seconds;
    },
    (seconds) => `stopped in ${seconds.toFixed(1)} s, exit code 0`,
  );
}

async function trialRun(options: PodmanOptions) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const name = `customer-core-check-${port}`;
  await step('Starting a trial: embedded database, migrated on start', async () => {
    await podman([
      ...options.global,
      'run',
      '--detach',
      '--name',
      name,
      ...options.container,
      '--network',
      'host',
      ...['--env', 'NODE_ENV=development', '--env', 'MIGRATE_ON_START=true'],
      ...['--env', `PORT=${port}`, '--env', `PUBLIC_URL=${baseUrl}`],
      IMAGE,
    ]);
    containers.push(name);
    await waitFor(
      `/readyz on port ${port}`,
      120,
      () => answers(`${baseUrl}/readyz`),
      () => logsOf(options, name),
    );
  });

  await step('Signing the demo borrower in and reading their loans', async () => {
    const { idToken } = await signInThroughIdp(baseUrl, {
      username: DEMO_BORROWER.login,
      password: DEMO_BORROWER.password,
    });
    const exchange = await fetch(`${baseUrl}${authEndpoints.tokenExchange.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: idToken }),
    });
    assert.equal(exchange.status, 200);
    const { access_token } = (await exchange.json()) as { access_token: string };
    const loans = await fetch(`${baseUrl}${loanEndpoints.loans.path}`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    assert.equal(loans.status, 200);
    assert.ok(LoanListSchema.parse(await loans.json()).loans.length > 0, 'the demo borrower has no loans');
  });
}

const logsOf = (options: PodmanOptions, name: string) =>
  podmanStatus([...options.global, 'logs', name]).then((logs) =>
    logs.output.split('\n').slice(-30).join('\n'),
  );

async function cleanUp(options: PodmanOptions) {
  for (const name of containers) await podmanStatus([...options.global, 'rm', '--force', name]);
  for (const database of databases) await database.drop().catch((error: unknown) => console.error(error));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  await podmanStatus([...options.global, 'rmi', '--force', IMAGE]);
  if (clean) {
    if (!process.env.IMAGE_BASE) await podmanStatus([...options.global, 'rmi', '--force', LOCAL_BASE]);
    await podmanStatus([...options.global, 'image', 'prune', '--force']);
  }
}

let options: PodmanOptions = { global: [], container: [] };
try {
  await ensureTools(['podman']);
  if (!process.env.IMAGE_BASE)
    await step(`Base image ${LOCAL_BASE} (Debian bookworm minbase and this machine's Node.js)`, () =>
      ensureBaseImage(LOCAL_BASE, mirror),
    );
  options = await step(
    'Finding how containers start here',
    () => runtimeOptions(base),
    (found) => [...found.global, ...found.container].join(' ') || "podman's defaults",
  );
  const log: string[] = [];
  await step(
    `Building the image from ${base}`,
    () =>
      runLogged(
        'podman',
        [
          ...options.global,
          'build',
          // The build's npm ci reaches the registry through this machine's network.
          ...['--network', 'host', ...options.container],
          // Docker's format: OCI's has no HEALTHCHECK.
          ...['--format', 'docker', '--build-arg', `BASE=${base}`, '--tag', IMAGE, root],
        ],
        log,
        (line) => {
          const stage = /^\[(\d+\/\d+)\] STEP (\d+\/\d+): (.{0,60})/.exec(line);
          if (stage) process.stdout.write(`\n  stage ${stage[1]}, step ${stage[2]}: ${stage[3]}`);
        },
      ).then(() => process.stdout.write('\n ')),
    () => `${log.filter((l) => /^added \d+ packages/.test(l)).join('; ')}`,
  );
  const size = Number(await podman([...options.global, 'image', 'inspect', IMAGE, '--format', '{{.Size}}']));
  console.log(`Image size: ${(size / 1e6).toFixed(0)} MB (uncompressed)`);
  await productionRun(options);
  await trialRun(options);
  console.log(
    'The image builds, migrates, serves, turns healthy, signs the demo borrower in and stops cleanly.',
  );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await cleanUp(options);
}
