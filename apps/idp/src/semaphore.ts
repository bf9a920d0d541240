/**
 * A counting semaphore: runs at most `limit` pieces of work at once; the rest wait their turn, first
 * come first served. For work that holds a lot of memory while it runs and cannot finish sooner by
 * running more at once.
 */
export function semaphore(limit: number) {
  let running = 0;
  /** Permits handed out by `reserve` whose work has not started yet: they are in line too. */
  let reserved = 0;
  const waiting: Array<() => void> = [];

  async function run<T>(work: () => Promise<T>): Promise<T> {
    if (running < limit) running++;
    else await new Promise<void>((takeTurn) => waiting.push(takeTurn)); // a finishing turn hands over its slot
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  }

  /**
   * A permit (a place in line), or undefined when `maxWaiting` are already waiting (or hold a permit)
   * and every slot is busy: the caller can refuse at once rather than wait behind a backlog. A permit
   * holds its place from now, so work taken on before it runs (a query) cannot let the line grow past it.
   */
  function reserve(maxWaiting: number): Permit | undefined {
    if (running + waiting.length + reserved >= limit + maxWaiting) return undefined;
    reserved++;
    let held = true;
    const release = () => {
      if (held) reserved--;
      held = false;
    };
    return {
      run<T>(work: () => Promise<T>): Promise<T> {
        if (!held) throw new Error('this permit was used or given up');
        release();
        return run(work);
      },
      release,
    };
  }

  /** Work waiting for a slot now. */
  const waitingCount = () => waiting.length;

  return { run, reserve, waitingCount };
}

export interface Permit {
  /** Runs the work in its turn; a permit runs one piece of work. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Gives the permit up unused (harmless after run). */
  release(): void;
}
