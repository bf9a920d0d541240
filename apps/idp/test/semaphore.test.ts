import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { semaphore } from '../src/semaphore.js';

describe('semaphore', () => {
  it('runs at most the limit at once, in arrival order, and keeps going after a failure', async () => {
    const slots = semaphore(2);
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
    const results = await Promise.allSettled([1, 2, 3, 4, 5, 6].map((n) => slots.run(work(n))));
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
    await Promise.all([2, 3].map((n) => slots.run(work(n))));
    assert.equal(most, 2);
  });

  it('hands out places in line up to a bound, and a place given up or used frees it', async () => {
    const slots = semaphore(1);
    let finish!: () => void;
    const blocker = slots.run(() => new Promise<void>((resolve) => (finish = resolve)));
    const first = slots.reserve(2);
    const second = slots.reserve(2);
    assert.ok(first && second);
    assert.equal(slots.reserve(2), undefined, 'one running, two in line: full');
    second.release();
    const third = slots.reserve(2);
    assert.ok(third, 'a place given up is free again');
    const ran = Promise.all([first.run(async () => 1), third.run(async () => 3)]);
    assert.equal(slots.reserve(2), undefined, 'waiting work holds its place');
    finish();
    assert.deepEqual(await ran, [1, 3]);
    await blocker;
    assert.ok(slots.reserve(0), 'nothing running: a place even with no line');
  });
});
