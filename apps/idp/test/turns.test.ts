import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { turns } from '../src/turns.js';

describe('turns', () => {
  it('runs at most the limit at once, in arrival order, and keeps going after a failure', async () => {
    const inTurn = turns(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const work = (n: number) => async () => {
      started.push(n);
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      if (n === 1) throw new Error('failed');
      return n;
    };
    const results = await Promise.allSettled([1, 2, 3, 4, 5, 6].map((n) => inTurn(work(n))));
    assert.equal(most, 2);
    assert.deepEqual(started, [1, 2, 3, 4, 5, 6]);
    assert.equal(results[0]!.status, 'rejected');
    assert.deepEqual(
      results.slice(1).map((r) => (r.status === 'fulfilled' ? r.value : null)),
      [2, 3, 4, 5, 6],
    );
    // Every slot came back: the limit holds, not fewer.
    running = 0;
    most = 0;
    await Promise.all([2, 3].map((n) => inTurn(work(n))));
    assert.equal(most, 2);
  });
});
