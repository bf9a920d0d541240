// `npm start`: builds only what changed, says what it does (one line per step with its duration), then
// runs the server. The server build is left to `tsc -b` (incremental); the portal's Vite build is skipped
// when none of its inputs is newer than the last complete build.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { SERVER_ENV, SERVER_NODE_ARGS } from './server-env.mjs';
import { performance } from 'node:perf_hooks';
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

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
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

/** Prints the step, runs it, and ends the line with its duration (and what the work returned, if anything). */
async function step(label, work) {
  process.stdout.write(`${label}… `);
  const started = performance.now();
  let note;
  try {
    note = await work();
  } catch (error) {
    process.stdout.write('failed\n');
    if (error instanceof BuildError) process.stderr.write(error.output);
    else console.error(error);
    process.exit(1);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(note ? `${seconds} s (${note})\n` : `${seconds} s\n`);
}

const serverEntry = at('apps/api/dist/main.js');
const serverBuiltAt = statSync(serverEntry, { throwIfNoEntry: false })?.mtimeMs ?? 0;
await step('Building the server', async () => {
  // tsc -b trusts its .tsbuildinfo files, which outlive a removed dist: then everything is rebuilt.
  const force = serverBuiltAt === 0 ? ['--force'] : [];
  // TypeScript 7's tsc (its package exports no bin path, so found beside its package.json).
  const tsc = path.join(path.dirname(require.resolve('@typescript/native/package.json')), 'bin/tsc');
  await run(process.execPath, [tsc, '-b', 'apps/api', ...force]);
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
// Signals sent to this process (Ctrl-C, a supervisor) are passed on so the server shuts down cleanly.
const server = spawn(process.execPath, [...SERVER_NODE_ARGS, serverEntry], {
  cwd: root,
  stdio: 'inherit',
  env: { ...SERVER_ENV, ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
