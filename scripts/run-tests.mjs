// Runs the project's tests with node's own test runner (TypeScript through tsx, workspace packages
// from source): all of them, one tier (--tier=unit|api|e2e), or the files whose path contains an
// argument. Unit and API tests first; browser tests last, since they need the build.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ensureChromium } from './chromium.mjs';

const root = path.resolve(import.meta.dirname, '..');
const roots = ['packages', 'apps', 'e2e'];
const files = roots
  .flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true }).map((f) => path.join(dir, String(f))),
  )
  .filter((f) => /\.test\.ts$/.test(f) && !f.split(path.sep).includes('node_modules'))
  .sort((a, b) => Number(a.startsWith('e2e')) - Number(b.startsWith('e2e')) || a.localeCompare(b));

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
const result = spawnSync(
  process.execPath,
  ['--conditions=source', '--import', 'tsx', '--test', '--test-reporter=spec', ...selected],
  { cwd: root, env, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
