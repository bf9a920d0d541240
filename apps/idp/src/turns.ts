/**
 * Runs at most `limit` pieces of work at once; the rest wait their turn, first come first served.
 * For work that holds a lot of memory while it runs and cannot finish sooner by running more at once.
 */
export function turns(limit: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async function inTurn<T>(work: () => Promise<T>): Promise<T> {
    if (running < limit) running++;
    else await new Promise<void>((takeTurn) => waiting.push(takeTurn)); // a finishing turn hands over its slot
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
