import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { freePort, keepLastLines } from '../../testing/index.js';

// The real server as a process of its own, so a crash shows as a process exit rather than as a failure
// of the test runner: main.ts from source (TypeScript through tsx, workspace packages from source), as
// the build's dist/main.js runs, so that no build is needed first.

const root = path.resolve(import.meta.dirname, '../../../..');

export interface ChildServer {
  url: string;
  /** How it ended, if it has. */
  exited(): string | undefined;
  /** Its last output lines (warnings and errors). */
  output(): string[];
  /** Resolves with the first line of its standard output that matches, printed already or to come. */
  printed(pattern: RegExp): Promise<string>;
  /** The server's process id (with SERVER_PROCESSES above 1, the primary's). */
  pid: number;
  stop(): Promise<void>;
}

export async function startChildServer(env: Record<string, string>): Promise<ChildServer> {
  // Its start is known by its welcome, which production does not print.
  if (env.NODE_ENV === 'production') throw new Error('startChildServer starts a development server');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'apps/api/src/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  child.once('exit', () => process.off('exit', kill));
  const lines = keepLastLines(child);
  const printedLines: string[] = [];
  const waiting = new Set<{ pattern: RegExp; found: (line: string) => void }>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    printedLines.push(line);
    for (const waiter of waiting)
      if (waiter.pattern.test(line)) {
        waiting.delete(waiter);
        waiter.found(line);
      }
  });
  const printed = (pattern: RegExp) => {
    const line = printedLines.find((l) => pattern.test(l));
    return line !== undefined
      ? Promise.resolve(line)
      : new Promise<string>((found) => waiting.add({ pattern, found }));
  };
  const exited = () =>
    child.exitCode !== null || child.signalCode !== null
      ? `exit ${child.exitCode ?? child.signalCode}`
      : undefined;
  const server: ChildServer = {
    url,
    exited,
    output: () => [...lines],
    printed,
    pid: child.pid!,
    stop: async () => {
      if (exited()) return;
      const done = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await done;
    },
  };
  try {
    // Asked for before anything is awaited after the spawn: no exit can have come before.
    await untilRunning(server, once(child, 'exit'));
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

/**
 * Resolves when the server says it is running: its welcome, printed once it listens (every process of
 * it, with SERVER_PROCESSES above 1), outside production. Fails as soon as the server ends instead.
 * No deadline of its own: the calling test's timeout is the safety net.
 */
async function untilRunning(server: ChildServer, exit: Promise<unknown>): Promise<void> {
  const first = await Promise.race([
    server.printed(/customer-core is running\./).then(() => 'running' as const),
    exit.then(() => 'ended' as const),
  ]);
  if (first === 'ended')
    throw new Error(`the server ended (${server.exited()}):\n${server.output().join('\n')}`);
}

/**
 * Asks /readyz, each time after the last answer, until it answers 200 or the server ends: for a server
 * already running that is getting its database back, or a process back (no line says so). No count or
 * deadline of its own: how long that takes depends on how busy the machine is, so the calling test's
 * timeout is the only safety net.
 */
export async function waitUntilReady(server: ChildServer): Promise<void> {
  for (;;) {
    const exit = server.exited();
    if (exit) throw new Error(`the server ended (${exit}):\n${server.output().join('\n')}`);
    const ready = await fetch(`${server.url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 50)); // not a busy loop while it starts
  }
}
