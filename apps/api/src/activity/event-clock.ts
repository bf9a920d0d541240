/**
 * When a borrower's security events happen, as this process writes them: now, to the millisecond as
 * the activity list's cursor carries it (timestamptz keeps microseconds), or a millisecond after the
 * borrower's last event from this process. The list orders by time, then by id, which is random: the
 * events of one request (a password change and the sessions it ends, an operator ending every session)
 * often share a millisecond, and would otherwise show in any order.
 */
export function eventClock({ now = Date.now, held = 1000 }: { now?: () => number; held?: number } = {}) {
  /** Each borrower's latest event time, ms; a time before now no longer moves the next one. */
  const latest = new Map<string, number>();
  return {
    at(borrowerId: string): Date {
      const current = now();
      const at = Math.max(current, (latest.get(borrowerId) ?? 0) + 1);
      if (latest.size >= held) for (const [id, time] of latest) if (time < current) latest.delete(id);
      latest.set(borrowerId, at);
      return new Date(at);
    },
    /** How many borrowers' times it holds. */
    held: () => latest.size,
  };
}
