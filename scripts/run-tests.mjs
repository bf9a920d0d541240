// Runs the project's tests with node's own test runner (TypeScript through tsx, workspace packages
// from source): all of them, one tier (--tier=unit|api|e2e), or the files whose path contains an
// argument. Files run side by side (TEST_CONCURRENCY, default below); each has its own databases,
// ports and folders. Browser tests need the build (npm test and test:e2e make it first).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { ensureChromium } from './chromium.mjs';

const root = path.resolve(import.meta.dirname, '..');
const roots = ['packages', 'apps', 'e2e'];
const files = roots
  .flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true }).map((f) => path.join(dir, String(f))),
  )
  .filter((f) => /\.test\.ts$/.test(f) && !f.split(path.sep).includes('node_modules'))
  // Node's runner starts them in path order, whatever order they are given in.
  .sort((a, b) => a.localeCompare(b));

// Tiers: unit tests need nothing running; API tests start real servers on PGlite (and PostgreSQL);
// browser tests drive Chromium against them.
const tiers = {
  unit: ['packages/contracts/', 'apps/web/'],
  api: ['apps/api/', 'apps/idp/', 'packages/database/'],
  e2e: ['e2e/'],
};
const args = process.argv.slice(2);
const tier = args.find((a) => a.startsWith('--tier='))?.slice('--tier='.length);
if (tier !== undefined && !(tier in tiers)) {
  console.error(`Unknown tier '${tier}': one of ${Object.keys(tiers).join(', ')}.`);
  process.exit(2);
}
const only = args.filter((a) => !a.startsWith('--tier='));
const selected = files.filter(
  (f) =>
    (tier === undefined || tiers[tier].some((prefix) => f.split(path.sep).join('/').startsWith(prefix))) &&
    (only.length === 0 || only.some((o) => f.includes(o))),
);
if (selected.length === 0) {
  console.error('No test files matched.');
  process.exit(1);
}

// Browser tests need Chromium: found or installed before anything runs, so a missing one fails fast.
const env = { ...process.env };
if (selected.some((f) => f.startsWith('e2e'))) env.CHROMIUM_PATH = ensureChromium();

console.log(
  `Databases: PGlite${process.env.TEST_DATABASE_URL ? ' and PostgreSQL (TEST_DATABASE_URL)' : ' only (set TEST_DATABASE_URL to add PostgreSQL)'}`,
);
// Most of a test file's time is waiting (servers starting, the browser, the network, a second
// database), not computing: two cores keep more than two files busy.
const concurrency = Number(process.env.TEST_CONCURRENCY) || Math.max(2, availableParallelism() + 1);
const result = spawnSync(
  process.execPath,
  [
    '--conditions=source',
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${path.join(import.meta.dirname, 'test-durations.mjs')}`,
    '--test-reporter-destination=stderr',
    ...selected,
  ],
  { cwd: root, env, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
