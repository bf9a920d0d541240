// What the database's outboxes (e-mail, webhook deliveries) share: a loop that claims due rows in
// passes, at once again after a full batch or a nudge, else at the next poll; and the backoff between
// a row's attempts.

export interface OutboxLoopOptions {
  pollIntervalMs: number;
  /** Rows one pass claims at most: a full pass may mean more are due, so the next one starts at once. */
  batchSize: number;
  /** One pass: claims due rows and handles them; how many it claimed. */
  pass(): Promise<number>;
  /** The pass failed (the database unreachable): told with how many failed in a row. */
  failed(error: unknown, failures: number): void;
}

/** Exponential backoff with full jitter: retry n waits a random time in [0, min(max, base * 2^(n-1))). */
export function retryDelayMs(
  attempt: number,
  { retryBaseMs, retryMaxMs }: { retryBaseMs: number; retryMaxMs: number },
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(retryMaxMs, retryBaseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/** Runs an outbox's passes: one loop per instance, started and stopped with it. */
export class OutboxLoop {
  private running: Promise<void> | null = null;
  private stopping = false;
  private nudged = false;
  /** Set while the loop waits for the next poll or a nudge: it has nothing in hand. */
  private wake: (() => void) | null = null;
  private idleWaiters: Array<() => void> = [];
  private passWaiters: Array<() => void> = [];

  constructor(private readonly options: OutboxLoopOptions) {}

  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.running = this.loop();
  }

  /** Look for due rows now rather than at the next poll (after a row was committed). */
  nudge(): void {
    this.nudged = true;
    this.wake?.();
  }

  /**
   * Resolves once the loop waits for its next poll or nudge, every row of its last pass handled. After
   * a nudge: a whole pass that began after it has run. Lets a caller (a test) see that nothing more is
   * going to happen, rather than wait a while and hope.
   */
  whenIdle(): Promise<void> {
    if (this.wake) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Resolves when the pass in flight, or else the next one (at a nudge or the poll), has ended, whatever
   * it claimed. A caller waiting for a row's effect (a test reading the dev mailbox) looks again each
   * time one may have happened, instead of every few milliseconds.
   */
  afterPass(): Promise<void> {
    return new Promise((resolve) => this.passWaiters.push(resolve));
  }

  /** Stops polling; a pass in flight finishes first. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.running;
    this.running = null;
  }

  private async loop(): Promise<void> {
    const { pollIntervalMs, batchSize } = this.options;
    let failures = 0;
    while (!this.stopping) {
      this.nudged = false;
      let claimed = 0;
      try {
        claimed = await this.options.pass();
        failures = 0;
      } catch (error) {
        failures += 1;
        this.options.failed(error, failures);
      }
      for (const passed of this.passWaiters.splice(0)) passed();
      if (this.stopping) break;
      // A full batch may mean more are due; a nudge during the batch may be for a row it missed.
      if ((claimed >= batchSize && failures === 0) || this.nudged) continue;
      await this.sleep(failures ? Math.min(pollIntervalMs * 2 ** failures, 30_000) : pollIntervalMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      // The loop alone never keeps the process alive.
      const timer = setTimeout(done, ms).unref();
      this.wake = done;
      for (const idle of this.idleWaiters.splice(0)) idle();
    });
  }
}
