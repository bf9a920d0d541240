import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { PaymentRuns } from '../src/payments/payment-runs.js';

// The day's payment run of each instance: once per banking day, from the cut-off on; a failed run is
// tried again at the next check. The clock is the test's.

const NEW_YORK = { timeZone: 'America/New_York', cutoff: '14:00' };
const silent = pino({ level: 'silent' });

function runsAt(instants: string[], outcomes: Array<'ok' | 'fail'> = []) {
  let at = 0;
  const ran: string[] = [];
  const runs = new PaymentRuns(
    async () => {
      ran.push(instants[at]!);
      if (outcomes[ran.length - 1] === 'fail') throw new Error('the database went away');
    },
    NEW_YORK,
    silent,
    () => new Date(instants[at]!),
  );
  return {
    ran,
    async checkEach() {
      for (at = 0; at < instants.length; at += 1) await runs.check();
    },
  };
}

describe('the day’s payment run', () => {
  it('runs once a banking day, from the cut-off on (14:00 in New York)', async () => {
    const day = runsAt([
      '2026-12-01T18:59:00Z', // 13:59 EST: before the cut-off
      '2026-12-01T19:00:00Z', // 14:00: due
      '2026-12-01T19:01:00Z', // ran already today
      '2026-12-02T19:30:00Z', // the next day, past its cut-off
    ]);
    await day.checkEach();
    assert.deepEqual(day.ran, ['2026-12-01T19:00:00Z', '2026-12-02T19:30:00Z']);
  });

  it('does not run on a weekend or a Federal Reserve holiday', async () => {
    const closed = runsAt([
      '2026-11-28T20:00:00Z', // Saturday
      '2026-11-26T20:00:00Z', // Thanksgiving
      '2026-12-25T20:00:00Z', // Christmas
    ]);
    await closed.checkEach();
    assert.deepEqual(closed.ran, []);
  });

  it('tries a failed run again at the next check', async () => {
    const retried = runsAt(
      ['2026-12-01T19:00:00Z', '2026-12-01T19:01:00Z', '2026-12-01T19:02:00Z'],
      ['fail'],
    );
    await retried.checkEach();
    assert.deepEqual(retried.ran, ['2026-12-01T19:00:00Z', '2026-12-01T19:01:00Z']);
  });
});
