import type { FastifyBaseLogger } from 'fastify';
import type { WebhookSettings } from '../config/config.js';
import { OutboxLoop, retryDelayMs } from '../db/outbox-loop.js';
import type { AttemptAnswer, ClaimedDelivery, WebhookRepository } from './webhook-repository.js';
import { signedWebhookHeaders } from './webhook-signature.js';

export interface WebhookWorkerOptions extends WebhookSettings {
  /** Deliveries claimed and made at once. */
  concurrency?: number;
  log: FastifyBaseLogger;
  /** For tests: the retries' jitter. */
  random?: () => number;
  /** Told of each attempt's outcome. */
  metrics?: WebhookMetrics;
}

/** What the worker tells the instance's metrics. */
export interface WebhookMetrics {
  delivered(type: string, outcome: 'delivered' | 'failed' | 'dead'): void;
}

/** The start of an endpoint's answer kept with the delivery (what an operator reads). */
const KEPT_ANSWER = 1000;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]+/g;

/**
 * Delivers the webhook outbox: one per instance. Each attempt is a POST of the event as it was
 * signed, with the Standard Webhooks headers (the same webhook-id on every attempt, so a receiver
 * processes it once); a 2xx is delivered, anything else (a redirect too, never followed) is retried
 * with backoff, and after the last attempt the delivery is dead and its endpoint turned off, loudly.
 */
export class WebhookWorker {
  private readonly loop: OutboxLoop;
  private readonly concurrency: number;

  constructor(
    private readonly repository: WebhookRepository,
    private readonly options: WebhookWorkerOptions,
  ) {
    this.concurrency = options.concurrency ?? 4;
    this.loop = new OutboxLoop({
      pollIntervalMs: options.pollIntervalMs,
      batchSize: this.concurrency,
      pass: () => this.runOnce(),
      failed: (error, failures) =>
        options.log.warn(
          { err: { message: (error as Error).message }, failures },
          'webhooks: the outbox could not be read; trying again',
        ),
    });
  }

  start = () => this.loop.start();
  nudge = () => this.loop.nudge();
  whenIdle = () => this.loop.whenIdle();
  stop = () => this.loop.stop();

  /** Claims one batch of due deliveries and makes them; the number claimed. */
  async runOnce(): Promise<number> {
    const claimed = await this.repository.claimDue({
      limit: this.concurrency,
      leaseMs: this.options.leaseMs,
    });
    await Promise.all(claimed.map((delivery) => this.deliver(delivery)));
    return claimed.length;
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const { log, maxAttempts } = this.options;
    const fields = {
      deliveryId: delivery.id,
      webhookId: delivery.eventId,
      type: delivery.type,
      endpointId: delivery.endpointId,
      attempt: delivery.attempt,
    };
    try {
      const answer =
        delivery.attempt > maxAttempts
          ? { status: null, response: null, error: 'The last attempt did not finish (its worker stopped).' }
          : await this.attempt(delivery);
      if (answer.status !== null && answer.status >= 200 && answer.status < 300) {
        if (await this.repository.markDelivered(delivery, answer)) {
          this.options.metrics?.delivered(delivery.type, 'delivered');
          log.info({ ...fields, status: answer.status }, 'webhooks: delivered');
        }
        return;
      }
      const failure = answer.error ?? `HTTP ${answer.status}`;
      if (delivery.attempt >= maxAttempts) {
        const reason = `Turned off: ${maxAttempts} attempts to deliver ${delivery.eventId} failed, the last with ${failure}.`;
        if (await this.repository.markDead(delivery, answer, reason)) {
          this.options.metrics?.delivered(delivery.type, 'dead');
          log.error({ ...fields, failure }, 'webhooks: a delivery gave up; its endpoint is turned off');
        }
        return;
      }
      const delay = retryDelayMs(delivery.attempt, this.options, this.options.random);
      if (await this.repository.scheduleRetry(delivery, answer, delay)) {
        this.options.metrics?.delivered(delivery.type, 'failed');
        log.warn({ ...fields, failure, retryInMs: delay }, 'webhooks: delivery failed; it will be retried');
      }
    } catch (error) {
      // The outcome could not be recorded (database unreachable): the lease ends and it is tried again.
      log.warn(
        { ...fields, err: { message: (error as Error).message } },
        'webhooks: could not record a delivery attempt; it will be claimed again',
      );
    }
  }

  private async attempt(delivery: ClaimedDelivery): Promise<AttemptAnswer> {
    const headers = signedWebhookHeaders(delivery.secret, {
      id: delivery.eventId,
      timestampSeconds: Math.floor(Date.now() / 1000),
      body: delivery.payload,
    });
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'customer-core-webhooks', ...headers },
        body: delivery.payload,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      return { status: response.status, response: await answerStart(response), error: null };
    } catch (error) {
      const { name, message, cause } = error as Error & { cause?: { code?: string; message?: string } };
      const why =
        name === 'TimeoutError'
          ? `No answer within ${this.options.timeoutMs / 1000} s.`
          : (cause?.code ?? cause?.message ?? message);
      return { status: null, response: null, error: why };
    }
  }
}

/** The first KEPT_ANSWER characters of an answer, read no further, on one line. */
async function answerStart(response: Response): Promise<string | null> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < KEPT_ANSWER) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text.slice(0, KEPT_ANSWER).replace(CONTROL_CHARACTERS, ' ').trim() || null;
}
