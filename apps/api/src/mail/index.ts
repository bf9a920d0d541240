import type { Config } from '../config/config.js';
import type { ApiTransaction } from '../db/schema.js';
import type { DevMailboxRepository } from './dev-mailbox-repository.js';
import type { DeadMail, MailMessage, OutboxRepository } from './outbox-repository.js';
import { mailTemplates, type MailTemplates } from './templates.js';
import { devMailboxTransport, smtpTransport, type MailTransport } from './transports.js';
import type { MailLogger } from './logger.js';
import { MailWorker, type MailMetrics } from './worker.js';

export type { DeadMail, MailMessage } from './outbox-repository.js';
export {
  absoluteUrlOn,
  escapeHtml,
  oneLine,
  type EmailContent,
  type MailBrand,
  type RenderedEmail,
} from './render.js';
export { deviceIn, mailTemplates, type MailTemplates, type TemplatedEmail } from './templates.js';
export type { MailLogger } from './logger.js';
export { wordsOf } from './words/index.js';
export { retryDelayMs } from '../db/outbox-loop.js';
export { MailWorker, type MailMetrics, type MailWorkerOptions } from './worker.js';
export type { MailTransport, OutgoingMail } from './transports.js';

/** E-mail for one instance: what flows call, and the worker that delivers. */
export interface MailService {
  /**
   * Writes a message to the outbox inside `trx` (the transaction that creates the token it carries),
   * or on its own without one. A repeated idempotency key is a no-op. Nothing is sent until the
   * transaction commits; call `nudge()` then to have it delivered at once instead of at the next poll.
   */
  enqueue(message: MailMessage, trx?: ApiTransaction): Promise<{ id: string; created: boolean }>;
  /** Withdraws messages of these kinds to the recipient that no worker has taken yet, inside `trx`. */
  withdraw(mail: { recipient: string; kinds: readonly string[] }, trx?: ApiTransaction): Promise<number>;
  /** Messages that gave up (operators' view: no bodies), the latest first. */
  deadLetters(limit?: number): Promise<DeadMail[]>;
  /** The messages to an address, newest first, with their delivery state (operators' view: no bodies). */
  sentTo: OutboxRepository['to'];
  /** Queues dead messages again (those named, or all); the ids queued. The worker is nudged. */
  resendDead(which: { ids: readonly string[] } | 'all'): Promise<string[]>;
  /** Has this instance's worker look for due messages now. */
  nudge(): void;
  /** Resolves when the worker's pass in flight, or else its next one, has ended, its deliveries recorded. */
  afterPass(): Promise<void>;
  /** The lender's messages and the helpers they are built with (renderEmail, absoluteUrl). */
  templates: MailTemplates;
  /** True when messages go to the dev mailbox (outside production, without SMTP_URL). */
  devMailbox: boolean;
  start(): void;
  /** Stops the worker (a delivery in flight finishes) and closes the transport. */
  stop(): Promise<void>;
}

export function createMailService(
  config: Config,
  { outbox, mailbox }: { outbox: OutboxRepository; mailbox: DevMailboxRepository },
  log: MailLogger,
  metrics?: MailMetrics,
): MailService {
  const settings = config.mail;
  const transport: MailTransport = settings.smtpUrl
    ? smtpTransport(settings.smtpUrl)
    : devMailboxTransport(mailbox, { log, publicUrl: config.publicUrl, production: config.production });
  const worker = new MailWorker(outbox, transport, {
    from: settings.from,
    pollIntervalMs: settings.pollIntervalMs,
    maxAttempts: settings.maxAttempts,
    retryBaseMs: settings.retryBaseMs,
    retryMaxMs: settings.retryMaxMs,
    leaseMs: settings.leaseMs,
    production: config.production,
    log,
    metrics,
  });
  let stopped: Promise<void> | undefined;
  return {
    enqueue: outbox.enqueue,
    withdraw: outbox.withdraw,
    deadLetters: outbox.dead,
    sentTo: outbox.to,
    async resendDead(which) {
      const queued = await outbox.resendDead(which);
      if (queued.length > 0) worker.nudge();
      return queued;
    },
    nudge: () => worker.nudge(),
    afterPass: () => worker.afterPass(),
    templates: mailTemplates({
      lenderName: config.lender.name,
      publicUrl: config.publicUrl,
      supportPhone: config.lender.supportPhone,
    }),
    devMailbox: !settings.smtpUrl,
    start() {
      log.info(
        {
          transport: transport.description,
          ...(settings.smtpUrl ? {} : { mailbox: `${config.publicUrl}/dev/mailbox` }),
        },
        'mail: worker started',
      );
      worker.start();
    },
    stop: () =>
      (stopped ??= (async () => {
        await worker.stop();
        await transport.close();
      })()),
  };
}
