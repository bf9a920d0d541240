import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  TOAST_DURATION_MS,
  TOAST_HOTKEY,
  TOAST_SWIPE_THRESHOLD_PX,
  addToast,
  removeToast,
  stackedDuration,
  type Toast,
} from '../src/lib/toasts/toast-model.ts';

const empty = (): ReadonlyMap<string, Toast> => new Map();

describe('the toast model', () => {
  it('has the constants of spec sections 5 and 9', () => {
    assert.equal(TOAST_DURATION_MS, 3000);
    assert.equal(TOAST_SWIPE_THRESHOLD_PX, 50);
    assert.equal(TOAST_HOTKEY, 'F8');
  });

  it('keeps each toast under its key, with its title, message and status', () => {
    const toasts = addToast(
      empty(),
      { key: 'saved', title: 'Saved', message: 'All done.', status: 'success' },
      10,
    );
    assert.deepEqual([...toasts.keys()], ['saved']);
    assert.deepEqual(toasts.get('saved'), {
      key: 'saved',
      title: 'Saved',
      message: 'All done.',
      status: 'success',
      duration: TOAST_DURATION_MS,
      addedAt: 10,
    });
  });

  it('defaults the status to default and the key to the current timestamp', () => {
    const toasts = addToast(empty(), { title: 'Hello' }, 1_750_000_000_123);
    const toast = toasts.get('1750000000123');
    assert.ok(toast, 'kept under the timestamp');
    assert.equal(toast.status, 'default');
    assert.equal(toast.message, undefined);
  });

  it('never changes the map it is given', () => {
    const before = addToast(empty(), { key: 'a', title: 'A' }, 1);
    const after = addToast(before, { key: 'b', title: 'B' }, 2);
    assert.deepEqual([...before.keys()], ['a']);
    assert.deepEqual([...after.keys()], ['a', 'b']);
    assert.deepEqual([...removeToast(after, 'a').keys()], ['b']);
    assert.deepEqual([...after.keys()], ['a', 'b']);
  });

  it('makes each stacked toast last one base duration more than the one before', () => {
    assert.equal(stackedDuration(0), 3000);
    assert.equal(stackedDuration(1), 6000);
    assert.equal(stackedDuration(2), 9000);
    assert.equal(stackedDuration(2, 1000), 3000);
    let toasts = empty();
    for (const key of ['first', 'second', 'third']) toasts = addToast(toasts, { key, title: key }, 5);
    assert.deepEqual(
      [...toasts.values()].map((t) => t.duration),
      [3000, 6000, 9000],
    );
    // Once the others have gone, a new toast lasts the base duration again.
    toasts = removeToast(removeToast(removeToast(toasts, 'first'), 'second'), 'third');
    assert.equal(addToast(toasts, { key: 'fourth', title: 'Fourth' }).get('fourth')?.duration, 3000);
    assert.equal(addToast(empty(), { key: 'x', title: 'X' }, 0, 500).get('x')?.duration, 500);
  });

  it('replaces a toast added again under the same key, as a new one at the end of the stack', () => {
    let toasts = addToast(empty(), { key: 'a', title: 'A' }, 1);
    toasts = addToast(toasts, { key: 'b', title: 'B' }, 2);
    toasts = addToast(toasts, { key: 'a', title: 'A again', status: 'warning' }, 3);
    assert.deepEqual([...toasts.keys()], ['b', 'a']);
    assert.equal(toasts.size, 2);
    const replaced = toasts.get('a');
    assert.equal(replaced?.title, 'A again');
    assert.equal(replaced?.status, 'warning');
    assert.equal(replaced?.addedAt, 3);
    // It does not count itself: one other toast is shown, so two base durations.
    assert.equal(replaced?.duration, 6000);
  });

  it('removes a toast by key, and answers the same map for a key it does not hold', () => {
    const toasts = addToast(addToast(empty(), { key: 'a', title: 'A' }, 1), { key: 'b', title: 'B' }, 2);
    const removed = removeToast(toasts, 'a');
    assert.deepEqual([...removed.keys()], ['b']);
    assert.equal(removeToast(removed, 'a'), removed);
    assert.equal(removeToast(removed, 'b').size, 0);
  });
});
