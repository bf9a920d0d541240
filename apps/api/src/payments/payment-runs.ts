import type { FastifyBaseLogger } from 'fastify';
import { cutoffInstant, dayIn, isBankingDay, type BankCalendar } from './banking-days.js';

// The day's payment run, on its own: on each banking day, once the cut-off has come, every instance
// runs it once (settlement.run). Runs are safe to repeat: a second one, here or on another instance,
// finds what the first sent already taken, and autopay's debits and reminders are made once each.

/** How often an instance looks at the clock. */
const CHECK_EVERY_MS = 60_000;

export class PaymentRuns {
  private timer: NodeJS.Timeout | undefined;
  private ranOn: string | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly run: () => Promise<unknown>,
    private readonly calendar: BankCalendar,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Whether the day's run is due at `at`: a banking day, past its cut-off, not yet run here. */
  due(at: Date): boolean {
    const today = dayIn(this.calendar.timeZone, at);
    return isBankingDay(today) && this.ranOn !== today && at >= cutoffInstant(this.calendar, today);
  }

  /** Runs the day's run if it is due; a failed one is tried again at the next check. */
  check(): Promise<void> {
    const at = this.now();
    if (this.running || !this.due(at)) return this.running ?? Promise.resolve();
    const today = dayIn(this.calendar.timeZone, at);
    this.ranOn = today;
    this.running = this.run()
      .then(() => this.log.info({ day: today }, 'payment run done'))
      .catch((err: unknown) => {
        this.ranOn = undefined;
        this.log.error({ err }, 'payment run failed; trying again shortly');
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  start(): void {
    this.timer ??= setInterval(() => void this.check(), CHECK_EVERY_MS);
    this.timer.unref();
    void this.check();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
