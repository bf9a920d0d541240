import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction, type UpdateObject } from 'kysely';
import type { ApiDatabase } from '../db/schema.js';

// The outbox: a message is a row written in the same transaction as whatever it carries (a reset
// token, a sign-in link), so either both exist or neither does. Workers deliver it later; the request
// that wrote it never waits. Every time here is the database's clock, which all instances share.

export interface MailMessage {
  /** One recipient address. */
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * Names this message uniquely, e.g. `password-reset:<token id>`: enqueueing the same key again is a
   * no-op, and the key travels with the message (X-Idempotency-Key, and Message-ID derived from it) so
   * a receiver can de-duplicate a repeated delivery. Printable ASCII, no spaces; never the token itself.
   */
  idempotencyKey: string;
  /** What the message is, e.g. 'password-reset' (logs, the dead-letter view). */
  kind: string;
}

export type MailExecutor = Transaction<ApiDatabase> | Kysely<ApiDatabase>;

const ADDRESS = /^[^\s@<>()[\]",;:\\]+@[^\s@<>()[\]",;:\\]+\.[^\s@<>()[\]",;:\\]+$/;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;
const KIND = /^[a-z][a-z0-9-]{0,49}$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Writes a message to the outbox, in the caller's transaction when given one. Returns its id, and
 * whether this call created it (false: a message with this idempotency key already exists).
 * Call `nudge()` of the instance's mail service after committing to have it delivered at once.
 */
export async function enqueueMail(
  trx: MailExecutor,
  message: MailMessage,
): Promise<{ id: string; created: boolean }> {
  const problem = problemOf(message);
  if (problem) throw new TypeError(`enqueueMail: ${problem}`);
  const inserted = await trx
    .insertInto('mail_outbox')
    .values({
      idempotency_key: message.idempotencyKey,
      kind: message.kind,
      recipient: message.to.trim(),
      subject: message.subject,
      text_body: message.text,
      html_body: message.html,
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { id: inserted.id, created: true };
  const existing = await trx
    .selectFrom('mail_outbox')
    .select('id')
    .where('idempotency_key', '=', message.idempotencyKey)
    .executeTakeFirstOrThrow();
  return { id: existing.id, created: false };
}

/**
 * Withdraws the messages of these kinds to `recipient` that no worker has taken yet (a message being
 * sent may already be at the relay: it goes). In the caller's transaction; how many were withdrawn.
 */
export async function withdrawPendingMail(
  trx: MailExecutor,
  { recipient, kinds }: { recipient: string; kinds: readonly string[] },
): Promise<number> {
  if (kinds.length === 0) return 0;
  const withdrawn = await trx
    .deleteFrom('mail_outbox')
    .where(sql<boolean>`lower(recipient) = lower(${recipient.trim()})`)
    .where('kind', 'in', [...kinds])
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(withdrawn.numDeletedRows);
}

function problemOf(m: MailMessage): string | undefined {
  if (typeof m.to !== 'string' || m.to.trim().length > 254 || !ADDRESS.test(m.to.trim()))
    return 'to must be one e-mail address';
  if (!m.subject || m.subject.length > 250 || CONTROL.test(m.subject))
    return 'subject must be one line of at most 250 characters';
  if (!m.text || !m.html) return 'text and html are both required';
  if (!IDEMPOTENCY_KEY.test(m.idempotencyKey))
    return 'idempotencyKey must be 1-200 printable ASCII characters without spaces';
  if (!KIND.test(m.kind)) return 'kind must be lower-case letters, digits and dashes';
  return undefined;
}

/** A message a worker has claimed: it alone delivers it until `claimedUntil`. */
export interface ClaimedMail {
  id: string;
  idempotencyKey: string;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** This attempt's number, from 1. */
  attempt: number;
  claimToken: string;
}

/**
 * Claims up to `limit` due messages: pending ones whose time has come, and claimed ones whose lease
 * ended (their worker stopped or crashed; `attempt` then exceeds the maximum if that was the last). `for update skip locked` lets several workers on one
 * PostgreSQL claim concurrently without taking the same message.
 */
export async function claimDueMail(
  db: Kysely<ApiDatabase>,
  options: { limit: number; leaseMs: number },
): Promise<ClaimedMail[]> {
  const claimToken = randomUUID();
  const { rows } = await sql<{
    id: string;
    idempotency_key: string;
    kind: string;
    recipient: string;
    subject: string;
    text_body: string | null;
    html_body: string | null;
    attempts: number;
  }>`
    with due as (
      select id from mail_outbox
      where (status = 'pending' and next_attempt_at <= now())
         or (status = 'sending' and claimed_until <= now())
      order by next_attempt_at
      limit ${Math.trunc(options.limit)}
      for update skip locked
    )
    update mail_outbox m
    set status = 'sending',
        attempts = m.attempts + 1,
        claimed_until = now() + make_interval(secs => ${options.leaseMs / 1000}),
        claim_token = ${claimToken},
        updated_at = now()
    from due
    where m.id = due.id
    returning m.id, m.idempotency_key, m.kind, m.recipient, m.subject, m.text_body, m.html_body, m.attempts
  `.execute(db);
  return rows.map((row) => ({
    id: row.id,
    idempotencyKey: row.idempotency_key,
    kind: row.kind,
    to: row.recipient,
    subject: row.subject,
    text: row.text_body ?? '',
    html: row.html_body ?? '',
    attempt: Number(row.attempts),
    claimToken,
  }));
}

/** Records a delivery. Whoever delivered it, the message is sent: it is not claimed again. */
export async function markSent(db: Kysely<ApiDatabase>, id: string): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({
      status: 'sent',
      sent_at: sql<Date>`now()`,
      claimed_until: null,
      claim_token: null,
      text_body: null,
      html_body: null,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where('status', '!=', 'sent')
    .execute();
}

/** Schedules the next attempt of a failed one; false if this claim no longer holds the message. */
export function scheduleRetry(
  db: Kysely<ApiDatabase>,
  mail: ClaimedMail,
  delayMs: number,
  error: string,
): Promise<boolean> {
  return releaseClaim(db, mail, {
    status: 'pending',
    next_attempt_at: sql<Date>`now() + make_interval(secs => ${Math.round(delayMs) / 1000})`,
    last_error: error,
  });
}

/**
 * Gives up on a message: dead, with the last error kept. Its bodies stay, so that an operator can send
 * it again (`resendDeadMail`) once the relay or the address is fixed; they go with the row when it is
 * purged.
 */
export function markDead(db: Kysely<ApiDatabase>, mail: ClaimedMail, error: string): Promise<boolean> {
  return releaseClaim(db, mail, { status: 'dead', last_error: error });
}

/** A message that gave up, as operators see it: never its bodies (they carry one-time links). */
export interface DeadMail {
  id: string;
  recipient: string;
  kind: string;
  attempts: number;
  lastError: string | null;
  /** When it was enqueued, and when it gave up. */
  createdAt: Date;
  diedAt: Date;
  /** False for a message that died before dead ones kept their bodies: there is nothing to send again. */
  resendable: boolean;
}

/** The dead messages, the latest to give up first, at most `limit`. */
export async function listDeadMail(db: Kysely<ApiDatabase>, limit = 100): Promise<DeadMail[]> {
  const rows = await db
    .selectFrom('mail_outbox')
    .select(['id', 'recipient', 'kind', 'attempts', 'last_error', 'created_at', 'updated_at'])
    .select(sql<boolean>`text_body is not null and html_body is not null`.as('resendable'))
    .where('status', '=', 'dead')
    .orderBy('updated_at', 'desc')
    .orderBy('id')
    .limit(Math.trunc(limit))
    .execute();
  return rows.map((row) => ({
    id: row.id,
    recipient: row.recipient,
    kind: row.kind,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    createdAt: row.created_at,
    diedAt: row.updated_at,
    resendable: Boolean(row.resendable),
  }));
}

/** The messages to `recipient`, newest first, at most `limit`: their delivery state, never their text. */
export async function mailTo(db: Kysely<ApiDatabase>, recipient: string, limit: number) {
  const rows = await db
    .selectFrom('mail_outbox')
    .select(['id', 'kind', 'status', 'attempts', 'last_error', 'created_at', 'sent_at'])
    .where(sql<boolean>`lower(recipient) = lower(${recipient.trim()})`)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(Math.trunc(limit))
    .execute();
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    status: row.status,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    createdAt: row.created_at,
    sentAt: row.sent_at,
  }));
}

/**
 * Puts dead messages back in the queue, due now, with their attempts counted from zero again: the
 * ones named, or every dead one. Only dead messages that kept their bodies; the ids of those re-queued.
 */
export async function resendDeadMail(
  db: Kysely<ApiDatabase>,
  which: { ids: readonly string[] } | 'all',
): Promise<string[]> {
  if (which !== 'all' && which.ids.length === 0) return [];
  let update = db
    .updateTable('mail_outbox')
    .set({
      status: 'pending',
      attempts: 0,
      next_attempt_at: sql<Date>`now()`,
      updated_at: sql<Date>`now()`,
    })
    .where('status', '=', 'dead')
    .where('text_body', 'is not', null)
    .where('html_body', 'is not', null);
  if (which !== 'all') update = update.where('id', 'in', [...which.ids]);
  const rows = await update.returning('id').execute();
  return rows.map((row) => row.id);
}

/** Ends this worker's claim with `changes`, only if the claim still holds; false when another took over. */
async function releaseClaim(
  db: Kysely<ApiDatabase>,
  mail: ClaimedMail,
  changes: UpdateObject<ApiDatabase, 'mail_outbox'>,
): Promise<boolean> {
  const result = await db
    .updateTable('mail_outbox')
    .set({ ...changes, claimed_until: null, claim_token: null, updated_at: sql<Date>`now()` })
    .where('id', '=', mail.id)
    .where('status', '=', 'sending')
    .where('claim_token', '=', mail.claimToken)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Sent and dead messages are kept this long (to answer "did it go out?"), then deleted. */
export async function purgeFinished(db: Kysely<ApiDatabase>, keepDays = 30): Promise<void> {
  await db
    .deleteFrom('mail_outbox')
    .where('status', 'in', ['sent', 'dead'])
    .where('updated_at', '<', sql<Date>`now() - make_interval(days => ${keepDays})`)
    .execute();
}

/** Messages waiting (pending, or claimed by a worker) and how long the oldest due one has waited. */
export async function outboxBacklog(
  db: Kysely<ApiDatabase>,
): Promise<{ pending: number; sending: number; oldestDueSeconds: number }> {
  const { rows } = await sql<{ pending: string; sending: string; oldest_due_seconds: string | null }>`
    select
      count(*) filter (where status = 'pending') as pending,
      count(*) filter (where status = 'sending') as sending,
      extract(epoch from now() - min(next_attempt_at)
        filter (where status = 'pending' and next_attempt_at <= now())) as oldest_due_seconds
    from mail_outbox
    where status in ('pending', 'sending')
  `.execute(db);
  const row = rows[0];
  return {
    pending: Number(row?.pending ?? 0),
    sending: Number(row?.sending ?? 0),
    oldestDueSeconds: Number(row?.oldest_due_seconds ?? 0),
  };
}

/**
 * The outbox's SQL over the database, for the mail service and its worker: each write runs in `trx`
 * when given (the transaction of what the message carries).
 */
export function outboxRepository(db: Kysely<ApiDatabase>) {
  return {
    enqueue: (message: MailMessage, trx: MailExecutor = db) => enqueueMail(trx, message),
    withdraw: (mail: { recipient: string; kinds: readonly string[] }, trx: MailExecutor = db) =>
      withdrawPendingMail(trx, mail),
    claimDue: (options: { limit: number; leaseMs: number }) => claimDueMail(db, options),
    markSent: (id: string) => markSent(db, id),
    scheduleRetry: (mail: ClaimedMail, delayMs: number, error: string) =>
      scheduleRetry(db, mail, delayMs, error),
    markDead: (mail: ClaimedMail, error: string) => markDead(db, mail, error),
    dead: (limit?: number) => listDeadMail(db, limit),
    to: (recipient: string, limit: number) => mailTo(db, recipient, limit),
    resendDead: (which: { ids: readonly string[] } | 'all') => resendDeadMail(db, which),
    purgeFinished: (keepDays?: number) => purgeFinished(db, keepDays),
    backlog: () => outboxBacklog(db),
  };
}

export type OutboxRepository = ReturnType<typeof outboxRepository>;
