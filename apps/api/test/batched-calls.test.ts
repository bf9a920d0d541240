import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batchedCalls } from '../src/db/batched-calls.js';

describe('calls run in batches', () => {
  it('a call alone runs at once; calls made meanwhile go together next, never two of one key', async () => {
    const batches: string[][] = [];
    let release: () => void = () => {};
    const call = batchedCalls(
      async (inputs: string[]) => {
        batches.push(inputs);
        // the first batch waits until the test lets it go, so that the others queue behind it.
        if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
        return inputs.map((input) => input.toUpperCase());
      },
      { keyOf: (input) => input[0]!, maxBatch: 3 },
    );
    const first = call('a1');
    const rest = ['b1', 'c1', 'b2', 'd1', 'e1'].map((input) => call(input));
    assert.deepEqual(batches, [['a1']]);
    release();
    assert.deepEqual(await Promise.all([first, ...rest]), ['A1', 'B1', 'C1', 'B2', 'D1', 'E1']);
    // b2 shares its key with b1, so it waits; the batch is full at 3.
    assert.deepEqual(batches, [['a1'], ['b1', 'c1', 'd1'], ['b2', 'e1']]);
  });

  it('a failing batch fails its own calls only, and the next batch still runs', async () => {
    let runs = 0;
    let release: () => void = () => {};
    const call = batchedCalls(
      async (inputs: number[]) => {
        runs += 1;
        if (runs === 1) await new Promise<void>((resolve) => (release = resolve));
        if (inputs.includes(13)) throw new Error('unlucky');
        return inputs.map((n) => n * 2);
      },
      { keyOf: String, maxBatch: 2 },
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
