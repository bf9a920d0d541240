import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventClock } from '../src/activity/event-clock.js';

describe('the security events’ clock', () => {
  it('gives one borrower’s events of one millisecond the next milliseconds, in the order written', () => {
    let now = 1_000;
    const clock = eventClock({ now: () => now });
    const times = [clock.at('ana'), clock.at('ana'), clock.at('ben'), clock.at('ana')].map((d) =>
      d.getTime(),
    );
    assert.deepEqual(times, [1_000, 1_001, 1_000, 1_002]);
    now = 1_010;
    assert.equal(clock.at('ana').getTime(), 1_010, 'the clock again once it is ahead');
  });

  it('holds no more borrowers than its room, but those whose time is not yet past', () => {
    let now = 5_000;
    const clock = eventClock({ now: () => now, room: 3 });
    for (const borrower of ['a', 'b', 'c']) clock.at(borrower);
    now += 1;
    clock.at('d');
    assert.equal(clock.held(), 1, 'the times before now went');
    // Ahead of now, as a burst leaves them: kept, so the next event still comes after.
    for (const borrower of ['e', 'e', 'f', 'f']) clock.at(borrower);
    clock.at('g');
    assert.equal(clock.held(), 4);
    assert.equal(clock.at('e').getTime(), now + 2);
  });
});
