// Runs the project's tests with node's own test runner (TypeScript through tsx, workspace packages
// from source): all of them, one tier (--tier=unit|api|e2e), or the files whose path contains an
// argument; with --watch, again on every change. Files run in a few processes side by side
// (TEST_CONCURRENCY per tier, default below); each file has its own databases, ports and folders.
// Browser tests need the build (npm test and test:e2e make it first).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureSystemTools } from './system-tools.mjs';
import { testRootSources, tierOf, TIERS } from './test-tiers.mjs';

const root = path.resolve(import.meta.dirname, '..');
// Node's runner starts them in path order, whatever order they are given in.
const files = testRootSources(root).filter((f) => /\.test\.tsx?$/.test(f));

const args = process.argv.slice(2);
const tier = args.find((a) => a.startsWith('--tier='))?.slice('--tier='.length);
if (tier !== undefined && !(tier in TIERS)) {
  console.error(`Unknown tier '${tier}': one of ${Object.keys(TIERS).join(', ')}.`);
  process.exit(2);
}
const watch = args.includes('--watch');
const only = args.filter((a) => !a.startsWith('--'));
const selected = files.filter(
  (f) => (tier === undefined || tierOf(f) === tier) && (only.length === 0 || only.some((o) => f.includes(o))),
);
if (selected.length === 0) {
  console.error('No test files matched.');
  process.exit(1);
}

// tsx compiles every file of the run with one configuration, JSX included (tsconfig.test-run.json).
const env = { TSX_TSCONFIG_PATH: path.join(root, 'tsconfig.test-run.json'), ...process.env };
// What the selected tests need from Debian, found or installed before anything runs, so that a missing
// tool fails fast: Chromium for browser tests, Prometheus for the metrics tests, nginx for the rolling
// restart (which runs on PostgreSQL only, and is skipped without it).
const NEEDS = {
  chromium: (file) => file.startsWith('e2e'),
  prometheus: (file) => file === path.join('apps', 'api', 'test', 'metrics.test.ts'),
  nginx: (file) =>
    Boolean(process.env.TEST_DATABASE_URL) &&
    file === path.join('apps', 'api', 'test', 'proxy-rolling-restart.test.ts'),
};
Object.assign(
  env,
  ensureSystemTools(Object.keys(NEEDS).filter((tool) => selected.some((file) => NEEDS[tool](file)))),
);

/**
 * What each test process loads first: node's runner kept from tracking every promise (why, and what it
 * still knows, in the file), Lingui's macros compiled before tsx compiles TypeScript, stylesheets as
 * empty modules.
 */
const preloads = ['test-async-tracking.mjs', 'test-lingui-macros.mjs', 'tsx', 'test-stylesheets.mjs'].flatMap(
  (module) => [
    '--import',
    module.endsWith('.mjs') ? pathToFileURL(path.join(import.meta.dirname, module)).href : module,
  ],
);

console.log(
  `Databases: PGlite${process.env.TEST_DATABASE_URL ? ' and PostgreSQL (TEST_DATABASE_URL)' : ' only (set TEST_DATABASE_URL to add PostgreSQL)'}`,
);
// Watch mode (npm run test:watch -- <tier or file>): the files in processes of their own, run again
// when a file they load changes.
if (watch) {
  const result = spawnSync(
    process.execPath,
    ['--conditions=source', ...preloads, '--test', '--watch', ...selected],
    { cwd: root, env, stdio: 'inherit' },
  );
  process.exit(result.status ?? 1);
}

// Processes per tier: one per core. Each pays its start (the module graph, PGlite's templates, for
// browser tests a Chromium of its own), so a process more costs more than the waits it would fill: all
// tiers on 2 cores took about 6 % more CPU and 4 to 6 % more time with one more per tier, the API tier
// alone 68 and 72 s with three processes against 56 and 62 s with two. Only the browser tier run alone
// keeps a process more: a browser test waits as much as it computes (the browser, servers starting).
const browserTierAlone = selected.every((file) => tierOf(file) === 'e2e');
const concurrency =
  Number(process.env.TEST_CONCURRENCY) || Math.max(2, availableParallelism() + (browserTierAlone ? 1 : 0));

// A process spends seconds of CPU before its first test: TypeScript through tsx, the API's module
// graph, PGlite's WebAssembly. So each process runs a group of files, one after another, and all the
// groups run side by side. A tier's groups are balanced by a rough weight (a browser test file is slower
// per line than an API one, and a unit one faster), so that they end together.
// One process per slot keeps the cores busy, and a process more would only pay its start again (and,
// for browser tests, a Chromium of its own: Chromium is two thirds of the browser tier's CPU, and three
// processes a slot cost a fifth more CPU and time than one); a small run of unit and API tests takes
// fewer (a process per PROCESS_WORTH of weight).
const PROCESS_WORTH = 60_000;
// Component tests (*.test.tsx) put a browser page's globals on their process (apps/web/test/support/
// dom.ts): they share a process only with each other, one, so that the page, React and Testing
// Library load once (a second process costs more CPU than it saves time); a component test weighs as
// an API one per line.
const PAGE_GROUPS = 1;
const isPageTest = (file) => file.endsWith('.test.tsx');
const isBrowserTest = (file) => tierOf(file) === 'e2e';
const tierWeight = { unit: 0.2, api: 1, e2e: 4 };
// Read once per file: the balancing below sorts and sums by it.
const weights = new Map(
  selected.map((file) => [
    file,
    readFileSync(path.join(root, file)).length * (isPageTest(file) ? 1 : (tierWeight[tierOf(file)] ?? 1)),
  ]),
);
const weightOf = (file) => weights.get(file);
function balance(files, count) {
  const balanced = Array.from({ length: Math.min(files.length, count) }, () => ({ weight: 0, files: [] }));
  for (const file of [...files].sort((a, b) => weightOf(b) - weightOf(a))) {
    const lightest = balanced.reduce((min, g) => (g.weight < min.weight ? g : min));
    lightest.files.push(file);
    lightest.weight += weightOf(file);
  }
  return balanced;
}
const pageGroups = balance(selected.filter(isPageTest), PAGE_GROUPS);
const browserTests = selected.filter(isBrowserTest);
const computing = selected.filter((file) => !isPageTest(file) && !isBrowserTest(file));
const computingWeight = computing.reduce((sum, file) => sum + weightOf(file), 0);
const groups = [
  ...pageGroups,
  ...balance(browserTests, concurrency),
  ...balance(computing, Math.max(1, Math.min(concurrency, Math.ceil(computingWeight / PROCESS_WORTH)))),
];
// Per run: two runs in one checkout (a second terminal) must not share entry files.
const groupDir = path.join(root, 'test-results', `groups-${process.pid}`);
mkdirSync(groupDir, { recursive: true });
const entries = groups.map((group, i) => {
  const entry = path.join(groupDir, `${String(i + 1).padStart(2, '0')}.test.mjs`);
  // Imported in turn: each file's tests run after the previous file's, as in a process of its own.
  // Every file is imported before the first test runs (a hook of the root test): node's runner ends the
  // root, and runs its after hooks (the process's PGlite instances closed), whenever no test is left to
  // run, which would be between two files whenever one ended while the next was still loading.
  const imports = group.files.map(
    (f) => `  await import(${JSON.stringify(pathToFileURL(path.join(root, f)).href)});`,
  );
  writeFileSync(
    entry,
    [
      `// ${group.files.length} test files, run one after another`,
      `import { before } from 'node:test';`,
      `let imported;`,
      `const allImported = new Promise((resolve) => (imported = resolve));`,
      `before(() => allImported);`,
      `try {`,
      ...imports,
      `} finally {`,
      `  imported();`,
      `}`,
      '',
    ].join('\n'),
  );
  return entry;
});

const result = spawnSync(
  process.execPath,
  [
    '--conditions=source',
    ...preloads,
    '--test',
    // Every group at once: a group waits as well as it computes (PostgreSQL, Chromium, servers
    // starting), and groups of one tier queued behind another's left a core idle half the run.
    `--test-concurrency=${entries.length}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${path.join(import.meta.dirname, 'test-durations.mjs')}`,
    '--test-reporter-destination=stderr',
    ...entries,
  ],
  { cwd: root, env, stdio: 'inherit' },
);
rmSync(groupDir, { recursive: true, force: true });
process.exit(result.status ?? 1);
