// A reporter for node's test runner: after the run, the slowest test files by the time their
// top-level tests and suites took (hooks included; loading the file is not), so the files worth
// making faster are named without a second run.
import path from 'node:path';

const SHOWN = 15;

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
  yield `\nSlowest test files (of ${files.size}):\n`;
  for (const [file, ms] of [...files].sort((a, b) => b[1] - a[1]).slice(0, SHOWN)) {
    yield `${`${(ms / 1000).toFixed(1)} s`.padStart(8)}  ${file}\n`;
  }
}
