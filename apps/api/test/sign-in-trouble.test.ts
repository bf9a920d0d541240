import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signInTroubleEntries } from '../src/activity/sign-in-trouble.js';
import type { DirectorySecurityEvent } from '../src/identity/directory.js';

const at = (ms: number) => new Date(Date.UTC(2026, 10, 24, 12) + ms);
const event = (id: string, type: DirectorySecurityEvent['type'], ms: number): DirectorySecurityEvent => ({
  id,
  type,
  occurredAt: at(ms),
  clientAddress: '192.0.2.20',
  userAgent: null,
});

describe('failed sign-ins as the borrower reads them', () => {
  it('counts the failure that caused a lockout in its streak, when both share a millisecond', () => {
    const failures = Array.from({ length: 10 }, (_, i) => event(`f${i}`, 'sign_in_failed', i * 100));
    // The lockout listed before the tenth failure, as an id order may put it.
    const events = [...failures.slice(0, 9), event('lock', 'locked', 900), failures[9]!];
    const entries = signInTroubleEntries(events, []);
    assert.deepEqual(
      entries.map(({ kind, attempts }) => [kind, attempts]),
      [
        ['failed_sign_ins', 10],
        ['account_locked', null],
      ],
    );
  });

  it('ends a streak at a sign-in between two failures', () => {
    const entries = signInTroubleEntries(
      [event('a', 'sign_in_failed', 0), event('b', 'sign_in_failed', 1000)],
      [at(500)],
    );
    assert.deepEqual(
      entries.map(({ attempts }) => attempts),
      [1, 1],
    );
  });
});
