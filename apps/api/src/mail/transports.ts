import { createHash } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { DevMailboxRepository } from './dev-mailbox-repository.js';
import type { MailLogger } from './logger.js';

/** A message as a transport sends it. */
export interface OutgoingMail {
  /** The outbox row's id (logs). */
  id: string;
  kind: string;
  from: { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  html: string;
  idempotencyKey: string;
  /** `<…@domain>`, the same for every attempt of one message: a receiver de-duplicates on it. */
  messageId: string;
}

export interface MailTransport {
  /** For logs: 'smtp smtp.lender.example:465' or 'dev mailbox'. */
  readonly description: string;
  /** Resolves once the message is accepted; rejects with the reason otherwise. */
  send(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
}

/** Thrown for a refusal that no retry can change (the relay rejected the recipient for good). */
export class PermanentMailError extends Error {}

/** The Message-ID of the message with this idempotency key: stable across attempts and instances. */
export function messageIdFor(idempotencyKey: string, fromAddress: string): string {
  const domain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1) || 'localhost';
  const digest = createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 40);
  return `<${digest}@${domain}>`;
}

/** Headers sent with every message. */
function headersOf(mail: OutgoingMail): Record<string, string> {
  return {
    'X-Idempotency-Key': mail.idempotencyKey,
    'X-Mail-Kind': mail.kind,
    // RFC 3834: a machine wrote this; vacation responders should not answer it.
    'Auto-Submitted': 'auto-generated',
  };
}

/** The relay configured by SMTP_URL (smtp:// with STARTTLS when offered, or smtps://), pooled. */
export function smtpTransport(smtpUrl: string, options: { connections?: number } = {}): MailTransport {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  const port = Number(url.port) || (secure ? 465 : 587);
  const transporter = nodemailer.createTransport({
    host: url.hostname,
    port,
    secure,
    auth: url.username
      ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
      : undefined,
    pool: true,
    maxConnections: options.connections ?? 4,
    // Bounded, so one delivery never outlives the claim on its message.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    description: `smtp ${url.hostname}:${port}`, // never the credentials
    async send(mail) {
      try {
        await transporter.sendMail({
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          headers: headersOf(mail),
        });
      } catch (error) {
        const { code, responseCode } = error as { code?: string; responseCode?: number };
        // The relay refused the recipient with a permanent (5xx) reply: retrying cannot help.
        if (code === 'EENVELOPE' && typeof responseCode === 'number' && responseCode >= 500) {
          throw new PermanentMailError((error as Error).message, { cause: error });
        }
        throw error;
      }
    },
    async close() {
      transporter.close();
    },
  };
}

/**
 * Outside production without SMTP_URL: messages are stored in the database (so whichever instance
 * serves /dev/mailbox shows them). The log says which message arrived (its kind and id) and where to
 * read it, never its subject or body: a subject may be a sign-in code, a body carries one-time links.
 */
export function devMailboxTransport(
  mailbox: DevMailboxRepository,
  options: { log: MailLogger; publicUrl: string; production: boolean },
): MailTransport {
  if (options.production) throw new Error('The dev mailbox never runs in production');
  return {
    description: 'dev mailbox',
    async send(mail) {
      await mailbox.receive({
        messageId: mail.messageId,
        kind: mail.kind,
        sender: `${mail.from.name} <${mail.from.address}>`,
        recipient: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
      options.log.info(
        {
          mailId: mail.id,
          messageId: mail.messageId,
          kind: mail.kind,
          to: mail.to,
          mailbox: `${options.publicUrl}/dev/mailbox?to=${encodeURIComponent(mail.to)}`,
        },
        `dev mailbox: ${mail.kind} for ${mail.to}`,
      );
    },
    async close() {},
  };
}
