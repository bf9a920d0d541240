/**
 * Checks `check` now, then again each time `next()` resolves (an event after which it may hold: a
 * worker's pass), until it returns a truthy value; fails with `what` after `timeoutMs`. The waiting is
 * on the event, never on a timer: the time-out only ends a wait that nothing would.
 */
export async function untilAfter<T>(
  what: string,
  next: () => Promise<unknown>,
  check: () => T | Promise<T>,
  timeoutMs = 15_000,
): Promise<Exclude<T, false | 0 | '' | null | undefined>> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
  });
  try {
    for (;;) {
      // Before checking: an event while the check runs is not missed.
      const happened = next();
      const value = await check();
      if (value) return value as Exclude<T, false | 0 | '' | null | undefined>;
      if ((await Promise.race([happened, timedOut])) === TIMED_OUT)
        throw new Error(`timed out waiting for: ${what}`);
    }
  } finally {
    clearTimeout(timer);
  }
}

const TIMED_OUT = Symbol('timed out');
