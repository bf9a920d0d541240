// Counts the tests and the assertions written in the test files, by tier (scripts/test-tiers.mjs), so
// that a change that moves or removes tests can say what it kept: `node scripts/count-assertions.mjs`.
// Read from the source: a test is an it(...) or test(...) call; an assertion a call of node:assert
// (assert(...), assert.equal(...), ...) or of a helper that asserts (assertAccessible, expectNone,
// expectSignedOut). Helpers' own assertions in support files are counted apart, once.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { testRootSources, tierOf, TIERS } from './test-tiers.mjs';

const root = path.resolve(import.meta.dirname, '..');
// (Not a method of that name: `pattern.test(text)` is no test.)
const TEST = /(?<![.\w])(?:it|test)(?:\.(?:skip|only|todo))?\(/g;
const ASSERTION = /\bassert(?:\.\w+)?\(|\b(?:assertAccessible|expectNone|expectSignedOut)\(/g;
const count = (source, pattern) => source.match(pattern)?.length ?? 0;

const rows = Object.fromEntries(
  Object.keys(TIERS).map((tier) => [tier, { files: 0, tests: 0, assertions: 0, helpers: 0 }]),
);
for (const file of testRootSources(root)) {
  const tier = tierOf(file);
  const inTests = file.split(path.sep).some((part) => ['test', 'testing', 'e2e'].includes(part));
  if (!tier || !inTests) continue;
  const source = readFileSync(path.join(root, file), 'utf8');
  const row = rows[tier];
  if (/\.test\.tsx?$/.test(file)) {
    row.files += 1;
    row.tests += count(source, TEST);
    row.assertions += count(source, ASSERTION);
  } else row.helpers += count(source, ASSERTION);
}
console.log('tier   files  tests  assertions  (in helpers)');
for (const [tier, { files, tests, assertions, helpers }] of Object.entries(rows))
  console.log(
    `${tier.padEnd(6)} ${String(files).padStart(5)} ${String(tests).padStart(6)} ${String(assertions).padStart(11)}  (${helpers})`,
  );
