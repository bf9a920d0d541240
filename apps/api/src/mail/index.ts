import type { Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import type { ApiDatabase } from '../db/schema.js';
import { enqueueMail, withdrawPendingMail, type MailExecutor, type MailMessage } from './outbox.js';
import { mailTemplates, type MailTemplates } from './templates.js';
import { devMailboxTransport, smtpTransport, type MailTransport } from './transports.js';
import type { MailLogger } from './logger.js';
import { MailWorker } from './worker.js';

export { enqueueMail, type MailExecutor, type MailMessage } from './outbox.js';
export {
  absoluteUrlOn,
  escapeHtml,
  type EmailContent,
  type MailBrand,
  type RenderedEmail,
} from './render.js';
export { mailTemplates, type MailTemplates, type TemplatedEmail } from './templates.js';
export type { MailLogger } from './logger.js';
export { MailWorker, retryDelayMs, type MailWorkerOptions } from './worker.js';
export type { MailTransport, OutgoingMail } from './transports.js';

/** E-mail for one instance: what flows call, and the worker that delivers. */
export interface MailService {
  /**
   * Writes a message to the outbox inside `trx` (the transaction that creates the token it carries),
   * or on its own with the database. A repeated idempotency key is a no-op. Nothing is sent until the
   * transaction commits; call `nudge()` then to have it delivered at once instead of at the next poll.
   */
  enqueue(trx: MailExecutor, message: MailMessage): Promise<{ id: string; created: boolean }>;
  /** Withdraws messages of these kinds to the recipient that no worker has taken yet, inside `trx`. */
  withdraw(trx: MailExecutor, mail: { recipient: string; kinds: readonly string[] }): Promise<number>;
  /** Has this instance's worker look for due messages now. */
  nudge(): void;
  /** The lender's messages and the helpers they are built with (renderEmail, absoluteUrl). */
  templates: MailTemplates;
  /** True when messages go to the dev mailbox (outside production, without SMTP_URL). */
  devMailbox: boolean;
  start(): void;
  /** Stops the worker (a delivery in flight finishes) and closes the transport. */
  stop(): Promise<void>;
}

export function createMailService(config: Config, db: Kysely<ApiDatabase>, log: MailLogger): MailService {
  const settings = config.mail;
  const transport: MailTransport = settings.smtpUrl
    ? smtpTransport(settings.smtpUrl)
    : devMailboxTransport(db, { log, publicUrl: config.publicUrl, production: config.production });
  const worker = new MailWorker(db, transport, {
    from: settings.from,
    pollIntervalMs: settings.pollIntervalMs,
    maxAttempts: settings.maxAttempts,
    retryBaseMs: settings.retryBaseMs,
    retryMaxMs: settings.retryMaxMs,
    leaseMs: settings.leaseMs,
    production: config.production,
    log,
  });
  let stopped: Promise<void> | undefined;
  return {
    enqueue: enqueueMail,
    withdraw: withdrawPendingMail,
    nudge: () => worker.nudge(),
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
