import type { SecurityEvent } from '@customer-core/contracts';
import type { DirectorySecurityEvent } from '../identity/directory.js';
import { approximateAddress, deviceOf } from './device.js';

/** Failures further apart than this are two streaks (the lockout's own count restarts after an hour). */
const STREAK_GAP_MS = 60 * 60 * 1000;

/**
 * The directory's failed sign-ins and lockouts as the borrower reads them: a run of wrong passwords
 * is one entry ("3 failed sign-in attempts"), ended by a sign-in of the borrower, a lockout or an
 * hour without one; a lockout is an entry of its own. A streak is named by its first attempt (so it
 * keeps its id as it grows) and dated by its last, with that attempt's device.
 */
export function signInTroubleEntries(events: DirectorySecurityEvent[], signIns: Date[]): SecurityEvent[] {
  // A lockout is caused by the failure it shares a millisecond with: that failure goes first.
  const sorted = [...events].sort(
    (a, b) =>
      a.occurredAt.getTime() - b.occurredAt.getTime() ||
      Number(a.type === 'locked') - Number(b.type === 'locked'),
  );
  const signInTimes = signIns.map((time) => time.getTime());
  const entries: SecurityEvent[] = [];
  let streak: { first: DirectorySecurityEvent; last: DirectorySecurityEvent; attempts: number } | null = null;

  const entry = (event: DirectorySecurityEvent, kind: SecurityEvent['kind'], id: string): SecurityEvent => ({
    id,
    kind,
    occurredAt: event.occurredAt.toISOString(),
    device: deviceOf(event.userAgent),
    approximateAddress: event.clientAddress ? approximateAddress(event.clientAddress) : null,
    method: null,
    endedBy: null,
    attempts: null,
  });
  const close = () => {
    if (streak)
      entries.push({
        ...entry(streak.last, 'failed_sign_ins', `idp-${streak.first.id}`),
        attempts: streak.attempts,
      });
    streak = null;
  };

  for (const event of sorted) {
    const at = event.occurredAt.getTime();
    if (streak) {
      const since = streak.last.occurredAt.getTime();
      if (at - since > STREAK_GAP_MS || signInTimes.some((time) => time > since && time < at)) close();
    }
    if (event.type === 'locked') {
      close();
      entries.push(entry(event, 'account_locked', `idp-${event.id}`));
    } else if (streak) {
      streak.last = event;
      streak.attempts += 1;
    } else {
      streak = { first: event, last: event, attempts: 1 };
    }
  }
  close();
  return entries;
}
