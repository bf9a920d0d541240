import { OutboxLoop, retryDelayMs } from '../db/outbox-loop.js';
import type { ClaimedMail, OutboxRepository } from './outbox-repository.js';
import { maskEmail, redactDeliveryError, redactForLog } from './redaction.js';
import type { MailLogger } from './logger.js';
import { messageIdFor, PermanentMailError, type MailTransport } from './transports.js';

export interface MailWorkerOptions {
  from: { name: string; address: string };
  pollIntervalMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  leaseMs: number;
  /** Messages claimed and delivered at once. */
  concurrency?: number;
  production: boolean;
  log: MailLogger;
  /** For tests: the jitter's source. */
  random?: () => number;
  /** Told of each delivery attempt's outcome. */
  metrics?: MailMetrics;
}

/** What the worker tells the instance's metrics. */
export interface MailMetrics {
  delivered(kind: string, outcome: 'sent' | 'failed' | 'dead'): void;
}

const PURGE_INTERVAL_MS = 60 * 60 * 1000;
const MAX_ERROR_LENGTH = 1000;

/**
 * Delivers the outbox: one per instance. It claims due messages (several workers may share one
 * PostgreSQL), sends each through the transport, and records the outcome: sent, a retry later, or dead
 * after the last attempt. A message whose worker stopped mid-delivery is claimed again once its lease
 * ends, so delivery is at least once; the Message-ID lets a receiver drop a repeat.
 */
export class MailWorker {
  private lastPurge = Date.now();
  private readonly concurrency: number;
  private readonly loop: OutboxLoop;

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly transport: MailTransport,
    private readonly options: MailWorkerOptions,
  ) {
    this.concurrency = options.concurrency ?? 4;
    this.loop = new OutboxLoop({
      pollIntervalMs: options.pollIntervalMs,
      batchSize: this.concurrency,
      pass: async () => {
        const claimed = await this.runOnce();
        if (Date.now() - this.lastPurge > PURGE_INTERVAL_MS) {
          this.lastPurge = Date.now();
          await this.outbox.purgeFinished();
        }
        return claimed;
      },
      failed: (error, failures) =>
        options.log.warn(
          { err: { message: redactForLog(errorText(error)) }, failures },
          'mail: the outbox could not be read; trying again',
        ),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Look for due messages now rather than at the next poll (after an enqueue was committed). */
  nudge(): void {
    this.loop.nudge();
  }

  /**
   * Resolves once the worker waits for its next poll or nudge, every delivery of its last pass recorded.
   * After a nudge: a whole pass that began after it has run.
   */
  whenIdle(): Promise<void> {
    return this.loop.whenIdle();
  }

  /** Resolves when the pass in flight, or else the next one, has ended: its deliveries recorded. */
  afterPass(): Promise<void> {
    return this.loop.afterPass();
  }

  /** Stops polling; a delivery in flight finishes (and is recorded) first. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Claims one batch of due messages and delivers it; the number claimed. */
  async runOnce(): Promise<number> {
    const claimed = await this.outbox.claimDue({
      limit: this.concurrency,
      leaseMs: this.options.leaseMs,
    });
    await Promise.all(claimed.map((mail) => this.deliver(mail)));
    return claimed.length;
  }

  private async deliver(mail: ClaimedMail): Promise<void> {
    const { log, maxAttempts } = this.options;
    const fields = {
      mailId: mail.id,
      kind: mail.kind,
      attempt: mail.attempt,
      to: this.options.production ? maskEmail(mail.to) : mail.to,
    };
    try {
      if (mail.attempt > maxAttempts) {
        // Its last attempt's worker stopped before recording the outcome; it may or may not have gone out.
        await this.outbox.markDead(mail, 'the last attempt did not finish (its worker stopped); not retried');
        this.options.metrics?.delivered(mail.kind, 'dead');
        log.error(
          { ...fields, status: 'dead' },
          'mail: the last attempt did not finish; the message is dead',
        );
        return;
      }
      const started = Date.now();
      try {
        await this.transport.send({
          id: mail.id,
          kind: mail.kind,
          from: this.options.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          idempotencyKey: mail.idempotencyKey,
          messageId: messageIdFor(mail.idempotencyKey, this.options.from.address),
        });
      } catch (error) {
        await this.failed(mail, error, fields);
        return;
      }
      this.options.metrics?.delivered(mail.kind, 'sent');
      if (!(await this.recordSent(mail, fields))) return;
      log.info({ ...fields, status: 'sent', ms: Date.now() - started }, 'mail: delivered');
    } catch (error) {
      // The outcome could not be recorded (database unreachable): the lease ends and it is tried again.
      log.warn(
        { ...fields, err: { message: redactForLog(errorText(error)) } },
        'mail: could not record a delivery attempt; the message will be claimed again',
      );
    }
  }

  private async failed(mail: ClaimedMail, error: unknown, fields: object): Promise<void> {
    const { log, maxAttempts } = this.options;
    const reason = errorText(error).slice(0, MAX_ERROR_LENGTH);
    const permanent = error instanceof PermanentMailError;
    if (permanent || mail.attempt >= maxAttempts) {
      if (await this.outbox.markDead(mail, reason)) {
        this.options.metrics?.delivered(mail.kind, 'dead');
        log.error(
          { ...fields, status: 'dead', permanent, error: redactDeliveryError(reason, mail) },
          permanent
            ? 'mail: the relay refused the message for good; the message is dead'
            : `mail: delivery failed ${mail.attempt} times; the message is dead`,
        );
      }
      return;
    }
    const delay = retryDelayMs(mail.attempt, this.options, this.options.random);
    if (await this.outbox.scheduleRetry(mail, delay, reason)) {
      this.options.metrics?.delivered(mail.kind, 'failed');
      log.warn(
        { ...fields, status: 'pending', retryInMs: delay, error: redactDeliveryError(reason, mail) },
        'mail: delivery failed; it will be retried',
      );
    }
  }

  /** A delivered message must be recorded as sent, or it would be sent again: a few tries. */
  private async recordSent(mail: ClaimedMail, fields: object): Promise<boolean> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.outbox.markSent(mail.id);
        return true;
      } catch (error) {
        if (attempt >= 5) {
          this.options.log.error(
            { ...fields, status: 'sending', err: { message: redactForLog(errorText(error)) } },
            'mail: delivered but not recorded; it will be sent again when its claim ends',
          );
          return false;
        }
        await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
      }
    }
  }
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code, responseCode } = error as { code?: string; responseCode?: number };
  const details = [code, responseCode].filter((d) => d !== undefined).join(' ');
  return details ? `${error.message} (${details})` : error.message;
}
