/**
 * When a borrower's security events happen, as this process writes them: now, to the millisecond as
 * the activity list's cursor carries it (timestamptz keeps microseconds), or a millisecond after the
 * borrower's last event from this process. The list orders by time, then by id, which is random: the
 * events of one request (a password change and the sessions it ends, an operator ending every session)
 * often share a millisecond, and would otherwise show in any order.
 */
export function eventClock({ now = Date.now, room = 1000 }: { now?: () => number; room?: number } = {}) {
  /** Each borrower's latest event time, ms. */
  const latest = new Map<string, number>();
  return {
    at(borrowerId: string): Date {
      const current = now();
      const at = Math.max(current, (latest.get(borrowerId) ?? 0) + 1);
      if (latest.size >= room) {
        // Once it holds `room` borrowers, those whose time is past go: it no longer moves their next one.
        for (const [id, time] of latest) if (time < current) latest.delete(id);
      }
      latest.set(borrowerId, at);
      return new Date(at);
    },
    /** How many borrowers' times it holds. */
    held: () => latest.size,
  };
}
