// A reporter for node's test runner: after the run, the tests run per tier, and the slowest test files
// by the time their top-level tests and suites took (hooks included; loading the file is not), so the
// files worth making faster are named without a second run.
import path from 'node:path';
import { tierOf } from './test-tiers.mjs';

const SHOWN = 15;

export default async function* testDurations(source) {
  const files = new Map();
  const testsByTier = new Map();
  // When each tier's last test ended, from the reporter's start: the tier that ends last is the one
  // whose groups bound the run.
  const startedAt = Date.now();
  const endedByTier = new Map();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, details, skip, todo } = event.data;
    if (!file) continue;
    const name = path.relative(process.cwd(), file);
    const tier = tierOf(name) ?? 'other';
    endedByTier.set(tier, Date.now() - startedAt);
    if (details.type !== 'suite' && !skip && !todo) testsByTier.set(tier, (testsByTier.get(tier) ?? 0) + 1);
    if (nesting === 0) files.set(name, (files.get(name) ?? 0) + (details.duration_ms ?? 0));
  }
  if (files.size === 0) return;
  yield `\nTests run by tier: ${[...testsByTier].map(([tier, n]) => `${tier} ${n}`).join(', ')}\n`;
  yield `Last test of each tier ended after: ${[...endedByTier]
    .sort((a, b) => a[1] - b[1])
    .map(([tier, ms]) => `${tier} ${(ms / 1000).toFixed(0)} s`)
    .join(', ')}\n`;
  yield `\nSlowest test files (of ${files.size}):\n`;
  for (const [file, ms] of [...files].sort((a, b) => b[1] - a[1]).slice(0, SHOWN)) {
    yield `${`${(ms / 1000).toFixed(1)} s`.padStart(8)}  ${file}\n`;
  }
}
