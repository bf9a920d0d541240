// Waiting for what happens elsewhere (a notice between instances, a delivery, a log line), by asking
// again until it has: 15 s by default, which a loaded machine may need, not a healthy one.

/** Polls until `check` returns a truthy value; fails with `what` after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  check: () => T | Promise<T>,
  timeoutMs = 15_000,
): Promise<Exclude<T, false | 0 | '' | null | undefined>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as Exclude<T, false | 0 | '' | null | undefined>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export { untilAfter } from '../../testing/index.js';
