import './support/i18n.ts';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  formatRemaining,
  remainingAnnouncement,
  secondsUntil,
} from '../src/features/session/remaining-time.ts';

describe('the expiry countdown', () => {
  it('counts whole seconds up, never below zero', () => {
    assert.equal(secondsUntil(10_000, 0), 10);
    assert.equal(secondsUntil(10_000, 9_001), 1);
    assert.equal(secondsUntil(10_000, 10_000), 0);
    assert.equal(secondsUntil(10_000, 12_000), 0);
  });

  it('says it in words', () => {
    assert.equal(formatRemaining(75), '1 minute 15 seconds');
    assert.equal(formatRemaining(120), '2 minutes');
    assert.equal(formatRemaining(61), '1 minute 1 second');
    assert.equal(formatRemaining(1), '1 second');
    assert.equal(formatRemaining(0), '0 seconds');
  });

  it('announces only the marks passed since the warning opened', () => {
    assert.equal(remainingAnnouncement(60, 60), '');
    assert.equal(remainingAnnouncement(30, 60), 'Less than 30 seconds left.');
    assert.equal(remainingAnnouncement(12, 60), 'Less than 30 seconds left.');
    assert.equal(remainingAnnouncement(10, 60), 'Less than 10 seconds left.');
    // A 5-second warning has nothing to add to what the dialog said when it opened.
    assert.equal(remainingAnnouncement(3, 5), '');
  });
});
