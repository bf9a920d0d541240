import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ACTIVITY_WINDOW_MS,
  REFRESH_RETRY_MS,
  isActive,
  nextStep,
  refreshPoint,
  warningPoint,
  type SessionSituation,
} from '../src/lib/session/session-timing.ts';

// A 15-minute token issued at t = 1,000,000 s, with the default 60-second warning.
const IAT = 1_000_000;
const token = { iat: IAT, exp: IAT + 900 };
const at = (secondsAfterIssue: number) => (IAT + secondsAfterIssue) * 1000;

function situation(overrides: Partial<SessionSituation> = {}): SessionSituation {
  return {
    token,
    now: at(0),
    lastActivityAt: null,
    warningSeconds: 60,
    warning: false,
    retryAt: null,
    ...overrides,
  };
}

describe('refresh and warning points', () => {
  it('refreshes once a third of the lifetime remains', () => {
    assert.equal(refreshPoint(token, 60), at(600));
    assert.equal(warningPoint(token, 60), at(840));
  });

  it('never refreshes later than the warning point', () => {
    // 15 s lifetime, 5 s warning: a third left is exactly the warning point.
    assert.equal(refreshPoint({ iat: IAT, exp: IAT + 15 }, 5), at(10));
    // A warning longer than a third of the lifetime moves the refresh point up to it.
    assert.equal(refreshPoint({ iat: IAT, exp: IAT + 60 }, 30), at(30));
  });
});

describe('activity', () => {
  it('counts input since this tab got the token, within the last few minutes', () => {
    assert.equal(isActive(situation({ now: at(600), lastActivityAt: null })), false);
    assert.equal(isActive(situation({ now: at(600), lastActivityAt: at(500) })), true);
    assert.equal(
      isActive(situation({ now: at(600), lastActivityAt: at(600) - ACTIVITY_WINDOW_MS - 1 })),
      false,
    );
  });

  it('counts input from before the device clock was set back', () => {
    assert.equal(isActive(situation({ now: at(600), lastActivityAt: at(700) })), true);
  });
});

describe('next step', () => {
  it('waits for the refresh point on a fresh token', () => {
    assert.deepEqual(nextStep(situation({ lastActivityAt: at(0) + 1 })), { kind: 'wait', until: at(600) });
  });

  it('refreshes an active borrower past the refresh point', () => {
    assert.deepEqual(nextStep(situation({ now: at(600), lastActivityAt: at(590) })), { kind: 'refresh' });
    assert.deepEqual(nextStep(situation({ now: at(850), lastActivityAt: at(849) })), { kind: 'refresh' });
  });

  it('lets an idle borrower be until the warning point, then warns', () => {
    assert.deepEqual(nextStep(situation({ now: at(600) })), { kind: 'wait', until: at(840) });
    assert.deepEqual(nextStep(situation({ now: at(840) })), { kind: 'warn', expiresAt: at(900) });
  });

  it('keeps the warning up whatever the input, until the token expires', () => {
    const warned = situation({ now: at(850), warning: true, lastActivityAt: at(849) });
    assert.deepEqual(nextStep(warned), { kind: 'warn', expiresAt: at(900) });
    assert.deepEqual(nextStep({ ...warned, now: at(900) }), { kind: 'expire' });
  });

  it('ends the session once the token has expired, active or not', () => {
    assert.deepEqual(nextStep(situation({ now: at(900), lastActivityAt: at(899) })), { kind: 'expire' });
    assert.deepEqual(nextStep(situation({ now: at(5000) })), { kind: 'expire' });
  });

  it('waits before trying a failed refresh again, but still warns in time', () => {
    const failed = situation({ now: at(700), lastActivityAt: at(699), retryAt: at(700) + REFRESH_RETRY_MS });
    assert.deepEqual(nextStep(failed), { kind: 'wait', until: at(700) + REFRESH_RETRY_MS });
    assert.deepEqual(nextStep({ ...failed, now: at(710) }), { kind: 'refresh' });
    const late = situation({ now: at(835), lastActivityAt: at(834), retryAt: at(845) });
    assert.deepEqual(nextStep(late), { kind: 'wait', until: at(840) });
    assert.deepEqual(nextStep({ ...late, now: at(840) }), { kind: 'warn', expiresAt: at(900) });
  });
});
