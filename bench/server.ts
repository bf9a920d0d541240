import { spawn, type ChildProcess } from 'node:child_process';
import { SERVER_ENV, SERVER_NODE_ARGS } from '../scripts/server-env.mjs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, keepLastLines } from '@customer-core/api/testing';
import { createPostgresDatabase } from '@customer-core/database/testing';

// The real server, as production runs it (the built dist/main.js in its own process), so the load
// generator in this process does not share its event loop or CPU accounting.

const root = path.resolve(import.meta.dirname, '..');

export interface BenchServer {
  /** Where requests go: loopback only. */
  url: string;
  /** The configured PUBLIC_URL: the IdP's issuer and redirect URIs are built from it. */
  publicUrl: string;
  pid: number;
  database: string;
  /** Its Prometheus metrics (GET /metrics, METRICS_PORT); null with more than one server process. */
  metricsUrl: string | null;
  /** The server's last output lines (its warnings and errors; LOG_LEVEL=warn). */
  output(): string[];
  /** How it ended if it has (a crash under load makes every later figure meaningless). */
  exited(): string | undefined;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** An admin URL of a PostgreSQL server; a fresh database is created on it, else PGlite in a temp dir. */
  postgresUrl?: string | undefined;
  /** Directory for a V8 CPU profile of the server (node --cpu-prof), written when it stops. */
  cpuProfileDir?: string | undefined;
  /** More settings for the server (metrics, traces). */
  env?: Record<string, string>;
}

export async function startBenchServer({
  postgresUrl,
  cpuProfileDir,
  env = {},
}: StartOptions): Promise<BenchServer> {
  const port = await freePort();
  // Metrics are served by a single process only (the config refuses METRICS_PORT otherwise).
  const metricsPort = process.env.SERVER_PROCESSES ? null : await freePort();
  const storage = postgresUrl ? await createPostgresStorage(postgresUrl) : await createPgliteDir();
  const nodeArgs = [
    ...SERVER_NODE_ARGS,
    ...(cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : []),
  ];
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'apps/api/dist/main.js')], {
    cwd: root,
    env: {
      ...SERVER_ENV,
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
      NODE_ENV: 'development', // seeds the demo borrower
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json', // as in production (development's default is pretty lines)
      TRUST_PROXY: 'true', // so each simulated client address in X-Forwarded-For counts on its own
      // The e-mailed links' timing asks for one address 45 times (email-link-timing.ts): each time
      // through every step, not answered early as a flood of that address would be.
      EMAIL_LINK_FLOOD_LIMIT_PER_ADDRESS: '10000',
      // One process per core, or as many as given (PostgreSQL only); the sampler adds up all of them.
      ...(process.env.SERVER_PROCESSES && { SERVER_PROCESSES: process.env.SERVER_PROCESSES }),
      // Prepared statements on or off, to measure what they save (README: Operating it).
      ...(process.env.DATABASE_PREPARED_STATEMENTS && {
        DATABASE_PREPARED_STATEMENTS: process.env.DATABASE_PREPARED_STATEMENTS,
      }),
      ...(metricsPort !== null && { METRICS_PORT: String(metricsPort) }),
      ...storage.env,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  killWithThisProcess(child);
  const lines = keepLastLines(child);
  const stop = once(async () => {
    await terminate(child);
    await storage.remove();
    running.delete(stop);
  });
  running.add(stop);
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitUntilReady(url, child, lines);
    return {
      url,
      publicUrl: `http://localhost:${port}`,
      pid: child.pid!,
      database: storage.description,
      metricsUrl: metricsPort === null ? null : `http://127.0.0.1:${metricsPort}/metrics`,
      output: () => [...lines],
      exited: () =>
        child.exitCode !== null || child.signalCode !== null
          ? `exit ${child.exitCode ?? child.signalCode}`
          : undefined,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

const running = new Set<() => Promise<void>>();

/** Other clean-up for Ctrl-C too (e.g. the peer's database); returns what forgets it again. */
export function stopOnInterrupt(stop: () => Promise<void>): () => void {
  running.add(stop);
  return () => running.delete(stop);
}

/** For Ctrl-C: stops every server started here, also one still starting, and removes its data. */
export async function stopAllServers(): Promise<void> {
  await Promise.all([...running].map((stop) => stop()));
}

interface Storage {
  env: Record<string, string>;
  description: string;
  remove(): Promise<void>;
}

async function createPgliteDir(): Promise<Storage> {
  const dir = await mkdtemp(path.join(tmpdir(), 'customer-core-bench-'));
  return {
    env: { DATA_DIR: dir },
    description: 'PGlite (embedded, fresh temp dir)',
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

async function createPostgresStorage(adminUrl: string): Promise<Storage> {
  const database = await createPostgresDatabase(adminUrl, 'customer_core_bench');
  return {
    env: { DATABASE_URL: database.url },
    description: `PostgreSQL ${database.serverVersion} (fresh database ${database.name} on ${new URL(database.url).host})`,
    remove: database.drop,
  };
}

async function waitUntilReady(url: string, child: ChildProcess, lines: string[]): Promise<void> {
  const deadline = Date.now() + 60_000; // a fresh PGlite migrates and the seed hashes a password
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited (${child.exitCode ?? child.signalCode}):\n${lines.join('\n')}`);
    }
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server was not ready within 60 s:\n${lines.join('\n')}`);
}

/** SIGTERM lets main.ts drain and exit (and --cpu-prof write its profile); SIGKILL if it hangs. */
async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** A last resort when this process exits without stop() (Ctrl-C mid-phase): never leave it running. */
export function killWithThisProcess(child: ChildProcess): void {
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  child.once('exit', () => process.off('exit', kill));
}

/** stop() may be called from the run's finally and from Ctrl-C at once: one shutdown either way. */
function once(fn: () => Promise<void>): () => Promise<void> {
  let pending: Promise<void> | undefined;
  return () => (pending ??= fn());
}
