import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { groupedCalls } from '../src/db/grouped-calls.js';

describe('calls run in groups', () => {
  it('a call alone runs at once; calls made meanwhile go together next, never two of one key', async () => {
    const groups: string[][] = [];
    let release: () => void = () => {};
    const call = groupedCalls(
      async (inputs: string[]) => {
        groups.push(inputs);
        // The first group waits until the test lets it go, so that the others queue behind it.
        if (groups.length === 1) await new Promise<void>((resolve) => (release = resolve));
        return inputs.map((input) => input.toUpperCase());
      },
      { keyOf: (input) => input[0]!, maxGroup: 3 },
    );
    const first = call('a1');
    const rest = ['b1', 'c1', 'b2', 'd1', 'e1'].map((input) => call(input));
    assert.deepEqual(groups, [['a1']]);
    release();
    assert.deepEqual(await Promise.all([first, ...rest]), ['A1', 'B1', 'C1', 'B2', 'D1', 'E1']);
    // b2 shares its key with b1, so it waits; the group is full at 3.
    assert.deepEqual(groups, [['a1'], ['b1', 'c1', 'd1'], ['b2', 'e1']]);
  });

  it('a failing group fails its own calls only, and the next group still runs', async () => {
    let runs = 0;
    let release: () => void = () => {};
    const call = groupedCalls(
      async (inputs: number[]) => {
        runs += 1;
        if (runs === 1) await new Promise<void>((resolve) => (release = resolve));
        if (inputs.includes(13)) throw new Error('unlucky');
        return inputs.map((n) => n * 2);
      },
      { keyOf: String, maxGroup: 2 },
    );
    const first = call(1);
    const unlucky = [call(13), call(2)];
    const later = call(3);
    release();
    assert.equal(await first, 2);
    for (const outcome of await Promise.allSettled(unlucky)) assert.equal(outcome.status, 'rejected');
    assert.equal(await later, 6);
  });
});
