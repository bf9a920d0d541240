// `npm start`: builds only what changed, says what it does (a line per step with its duration, and its
// elapsed time every 2 s while it runs), then runs the server. The server build is left to `tsc -b` (incremental); the portal's Vite build is skipped
// when none of its inputs is newer than the last complete build.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { SERVER_ENV, SERVER_NODE_ARGS } from './server-env.mjs';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const at = (...parts) => path.join(root, ...parts);
const require = createRequire(import.meta.url);

/** Written after a complete portal build (Vite, precompression and size report): its time is the build's. */
const PORTAL_STAMP = at('apps/web/dist/.vite/complete');
const PORTAL_INPUTS = [
  'apps/web',
  'packages/contracts/src',
  'packages/contracts/package.json',
  'package.json',
  'package-lock.json',
];
const SKIPPED = new Set(['dist', 'node_modules', 'test']);

function newestChange(entry) {
  const stats = statSync(entry, { throwIfNoEntry: false });
  if (!stats) return 0;
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs; // a deleted file shows as a change of its folder
  for (const child of readdirSync(entry)) {
    if (!SKIPPED.has(child)) newest = Math.max(newest, newestChange(path.join(entry, child)));
  }
  return newest;
}

/** Runs a build command, its output kept for a failure; `onLine` sees each line it prints as it comes. */
function run(command, args, onLine = () => {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let partial = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      lines.forEach(onLine);
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new BuildError(output))));
  });
}

class BuildError extends Error {
  constructor(output) {
    super('build failed');
    this.output = output;
  }
}

// A step still running says so this often: under 5 s between lines even when a loaded machine runs
// the timer late. In a terminal the step's line is rewritten in place; in a log each is a line.
const PROGRESS_EVERY_MS = 2000;
const inTerminal = process.stdout.isTTY;

function showStep(text, final) {
  if (inTerminal) process.stdout.write(`\r\x1b[K${text}${final ? '\n' : ''}`);
  else process.stdout.write(`${text}\n`);
}

/**
 * Prints the step, then its elapsed time (and what it is at, as told by `doing`) while it runs; `end`
 * closes its line with its duration (and a note, if any).
 */
function startStep(label) {
  const started = performance.now();
  const seconds = (digits) => `${((performance.now() - started) / 1000).toFixed(digits)} s`;
  let what = '';
  showStep(`${label}…`, false);
  const progress = setInterval(
    () => showStep(`${label}… ${seconds(0)}${what ? ` (${what})` : ''}`, false),
    PROGRESS_EVERY_MS,
  );
  return {
    doing: (text) => (what = text),
    end(note) {
      clearInterval(progress);
      showStep(`${label}… ${seconds(1)}${note ? ` (${note})` : ''}`, true);
    },
    fail() {
      clearInterval(progress);
      showStep(`${label}… failed after ${seconds(1)}`, true);
    },
  };
}

/** A build step: the work is told `doing`, and what it returns is the step's note. */
async function step(label, work) {
  const progress = startStep(label);
  let note;
  try {
    note = await work(progress.doing);
  } catch (error) {
    progress.fail();
    if (error instanceof BuildError) process.stderr.write(error.output);
    else console.error(error);
    process.exit(1);
  }
  progress.end(note);
}

const serverEntry = at('apps/api/dist/main.js');
const serverBuiltAt = statSync(serverEntry, { throwIfNoEntry: false })?.mtimeMs ?? 0;
await step('Building the server', async (doing) => {
  // tsc -b trusts its .tsbuildinfo files, which outlive a removed dist: then everything is rebuilt.
  const force = serverBuiltAt === 0 ? ['--force'] : [];
  // TypeScript 7's tsc (its package exports no bin path, so found beside its package.json).
  const tsc = path.join(path.dirname(require.resolve('@typescript/native/package.json')), 'bin/tsc');
  // --verbose names each project as tsc starts building it: the progress line shows which.
  await run(process.execPath, [tsc, '-b', 'apps/api', '--verbose', ...force], (line) => {
    const project = /Building project '(.+?)(?:\/tsconfig\.json)?'/.exec(line)?.[1];
    if (project) doing(path.relative(root, path.resolve(root, project)));
  });
  return statSync(serverEntry).mtimeMs === serverBuiltAt ? 'it was current' : undefined;
});

const portalBuiltAt = statSync(PORTAL_STAMP, { throwIfNoEntry: false })?.mtimeMs ?? 0;
if (portalBuiltAt > 0 && PORTAL_INPUTS.every((input) => newestChange(at(input)) < portalBuiltAt)) {
  console.log('Portal build is current');
} else {
  await step('Building the portal', async () => {
    await run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build', '-w', '@customer-core/web']);
    writeFileSync(PORTAL_STAMP, '');
  });
}

if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing after the build`);
// A first start creates the database and the identity provider's keys before the server says anything:
// the step shows its time until the server's first line, then the server's output passes through as it
// comes (in colour in a terminal, as the server would print it there itself).
const server = spawn(process.execPath, [...SERVER_NODE_ARGS, serverEntry], {
  cwd: root,
  stdio: ['inherit', 'pipe', 'pipe'],
  env: { ...SERVER_ENV, ...(inTerminal ? { FORCE_COLOR: '1' } : {}), ...process.env },
});
const starting = startStep('Starting the server');
let started = false;
const passOn = (to) => (chunk) => {
  if (!started) {
    started = true;
    starting.end();
  }
  to.write(chunk);
};
server.stdout.on('data', passOn(process.stdout));
server.stderr.on('data', passOn(process.stderr));
// Signals sent to this process (Ctrl-C, a supervisor) are passed on so the server shuts down cleanly.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
// 'close': once the server's output has all been passed on.
server.on('close', (code, signal) => {
  if (!started) starting.fail();
  process.exit(code ?? (signal ? 1 : 0));
});
