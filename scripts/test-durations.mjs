// A reporter for node's test runner: after the run, the slowest test files by the time their
// top-level tests and suites took (hooks included; loading the file is not), so the files worth
// making faster are named without a second run. The times are kept for the next run, which starts
// the longest files first (scripts/run-tests.mjs).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SHOWN = 15;
export const DURATIONS_FILE = path.resolve(
  import.meta.dirname,
  '../node_modules/.cache/customer-core/test-durations.json',
);

/** Milliseconds per test file (relative path) from earlier runs; empty on a fresh clone. */
export function knownDurations() {
  try {
    return JSON.parse(readFileSync(DURATIONS_FILE, 'utf8'));
  } catch {
    return {};
  }
}

export default async function* testDurations(source) {
  const files = new Map();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, details } = event.data;
    if (!file || nesting !== 0) continue;
    const name = path.relative(process.cwd(), file);
    files.set(name, (files.get(name) ?? 0) + (details.duration_ms ?? 0));
  }
  if (files.size === 0) return;
  mkdirSync(path.dirname(DURATIONS_FILE), { recursive: true });
  writeFileSync(DURATIONS_FILE, JSON.stringify({ ...knownDurations(), ...Object.fromEntries(files) }));
  yield `\nSlowest test files (of ${files.size}):\n`;
  for (const [file, ms] of [...files].sort((a, b) => b[1] - a[1]).slice(0, SHOWN)) {
    yield `${`${(ms / 1000).toFixed(1)} s`.padStart(8)}  ${file}\n`;
  }
}
