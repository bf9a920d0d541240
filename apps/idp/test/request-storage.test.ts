import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, it } from 'node:test';
import { RequestStorage } from '../src/request-storage.js';

describe('RequestStorage', () => {
  it('keeps each request its store until it ends, and is switched off when the last one has', async (t) => {
    const disable = t.mock.method(AsyncLocalStorage.prototype, 'disable');
    const storage = new RequestStorage<{ name: string }>();
    const seen: string[] = [];
    let finishFirst!: () => void;
    let finishSecond!: () => void;
    let secondStarted!: () => void;
    const started = new Promise<void>((resolve) => (secondStarted = resolve));

    const first = storage.run({ name: 'first' }, async () => {
      await new Promise<void>((resolve) => (finishFirst = resolve));
      seen.push(storage.getStore()!.name);
    });
    const second = storage.run({ name: 'second' }, async () => {
      secondStarted();
      await new Promise<void>((resolve) => (finishSecond = resolve));
      seen.push(storage.getStore()?.name ?? 'none');
    });
    await started;
    finishFirst();
    await first;
    // The second request still runs: its store survives the first one's end.
    assert.equal(disable.mock.callCount(), 0);
    finishSecond();
    await second;
    assert.deepEqual(seen, ['first', 'second']);
    assert.equal(disable.mock.callCount(), 1);
    assert.equal(storage.getStore(), undefined);

    // Used again after being switched off, and off again after a request that failed.
    await assert.rejects(
      storage.run({ name: 'third' }, async () => {
        await Promise.resolve();
        assert.equal(storage.getStore()?.name, 'third');
        throw new Error('failed');
      }),
      /failed/,
    );
    assert.equal(disable.mock.callCount(), 2);
  });
});
