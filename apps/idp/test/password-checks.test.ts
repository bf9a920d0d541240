import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { describe, it } from 'node:test';
import {
  PASSWORD_CHECKS_AT_ONCE,
  passwordChecksWaiting,
  passwordHasher,
  reservePasswordCheck,
} from '../src/passwords.js';
import { TEST_PASSWORD_HASH_COST } from '../testing/index.js';

describe('password checks', () => {
  it('leave a core to the rest of the process: one fewer at once than there are cores, at least one', async () => {
    const cores = availableParallelism();
    assert.ok(PASSWORD_CHECKS_AT_ONCE >= 1);
    assert.ok(cores === 1 || PASSWORD_CHECKS_AT_ONCE < cores, `${PASSWORD_CHECKS_AT_ONCE} on ${cores} cores`);

    const hash = await passwordHasher(TEST_PASSWORD_HASH_COST).hash('Right-password-1');
    const checks = Array.from({ length: PASSWORD_CHECKS_AT_ONCE + 2 }, () => reservePasswordCheck(100)!);
    // Each check takes its turn as it is asked: those past the limit wait for a slot.
    const verified = checks.map((check, i) => check.verify(hash, i === 0 ? 'Right-password-1' : 'wrong'));
    assert.equal(passwordChecksWaiting(), 2);
    assert.deepEqual(await Promise.all(verified), [true, ...checks.slice(1).map(() => false)]);
    assert.equal(passwordChecksWaiting(), 0);
  });
});
