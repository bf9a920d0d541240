import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';

// Every test process loads scripts/test-async-tracking.mjs first (scripts/run-tests.mjs), which keeps
// node's runner from tracking promises. These run a small test file under node's runner with and
// without it, and hold what the runner still knows: suites and their hooks, the test a timer's error
// belongs to, and a failed run for an error it can no longer place.

const preload = path.resolve(import.meta.dirname, '../../../scripts/test-async-tracking.mjs');
const folder = mkdtempSync(path.join(tmpdir(), 'customer-core-runner-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const fixture = path.join(folder, 'fixture.test.mjs');
writeFileSync(
  fixture,
  `import { before, describe, it, test } from 'node:test';
describe('a suite', () => {
  let ready = false;
  before(async () => {
    await Promise.resolve();
    ready = true;
  });
  it('runs after its hook', () => {
    if (!ready) throw new Error('the hook has not run');
  });
  describe('a nested suite', () => {
    it('runs inside it', () => {});
  });
});
test('a timer set before any await', () => {
  setTimeout(() => {
    throw new Error('thrown by the early timer');
  });
  // Timers of one duration run in the order they were set: the test ends after the error.
  return new Promise((resolve) => setTimeout(resolve));
});
test('a timer set after an await', async () => {
  await Promise.resolve();
  setTimeout(() => {
    throw new Error('thrown by the late timer');
  });
  await new Promise((resolve) => setTimeout(resolve));
});
test('a plain test', () => {});
`,
);

async function runFixture(preloads: readonly string[]) {
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [...preloads, '--test', '--test-reporter=spec', fixture],
      { env: { PATH: process.env.PATH } },
    );
    return { exitCode: 0, output: stdout };
  } catch (error) {
    const { code, stdout } = error as { code: number; stdout: string };
    return { exitCode: code, output: stdout };
  }
}

type Run = Awaited<ReturnType<typeof runFixture>>;
const MODES = { 'with promises untracked': ['--import', preload], "as node's own": [] };

describe("node's test runner, as the test processes run it", () => {
  // The fixture once per way of running it: each test reads what that run printed.
  const runs = {} as Record<keyof typeof MODES, Run>;
  before(async () => {
    await Promise.all(
      Object.entries(MODES).map(async ([mode, preloads]) => {
        runs[mode as keyof typeof MODES] = await runFixture(preloads);
      }),
    );
  });

  for (const mode of Object.keys(MODES) as Array<keyof typeof MODES>) {
    it(`${mode}: keeps suites and their hooks, and fails the test whose early timer throws`, () => {
      const { exitCode, output } = runs[mode];
      assert.equal(exitCode, 1, output);
      assert.match(
        output,
        /^▶ a suite\n {2}✔ runs after its hook .*\n {2}▶ a nested suite\n {4}✔ runs inside it /m,
      );
      assert.match(output, /^✖ a timer set before any await .*\n {2}Error: thrown by the early timer/m);
      assert.match(output, /^✔ a plain test /m);
    });
  }

  it('with promises untracked: an error from after an await fails the run, placed beside the tests', () => {
    const { exitCode, output } = runs['with promises untracked'];
    assert.equal(exitCode, 1, output);
    assert.match(output, /^✔ a timer set after an await /m);
    assert.match(
      output,
      /^ℹ Error: A resource generated asynchronous activity after the test ended\. This activity created the error "Error: thrown by the late timer"/m,
    );
  });

  it("as node's own: an error from after an await fails its test", () => {
    const { exitCode, output } = runs["as node's own"];
    assert.equal(exitCode, 1, output);
    assert.match(output, /^✖ a timer set after an await .*\n {2}Error: thrown by the late timer/m);
  });
});
