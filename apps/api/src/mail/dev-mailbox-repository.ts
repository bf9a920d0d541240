import { sql, type Kysely } from 'kysely';
import type { ApiDatabase } from '../db/schema.js';
import { extractLinks } from './links.js';

/** A message the dev mailbox received. */
export interface DevMailboxMessage {
  id: string;
  to: string;
  from: string;
  kind: string;
  subject: string;
  text: string;
  html: string;
  /** The absolute URLs in the message, e.g. its sign-in link. */
  links: string[];
  /** ISO 8601. */
  createdAt: string;
}

/** The newest messages first, for one recipient (any case) or everyone. */
export async function listDevMailbox(
  db: Kysely<ApiDatabase>,
  { to, limit = 100 }: { to?: string; limit?: number } = {},
): Promise<DevMailboxMessage[]> {
  let query = db
    .selectFrom('dev_mailbox_message')
    .select(['id', 'recipient', 'sender', 'kind', 'subject', 'text_body', 'html_body', 'created_at'])
    .orderBy('seq', 'desc')
    .limit(limit);
  if (to) query = query.where(sql<string>`lower(recipient)`, '=', to.trim().toLowerCase());
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    to: row.recipient,
    from: row.sender,
    kind: row.kind,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    links: extractLinks(row.text_body, row.html_body),
    createdAt: new Date(row.created_at).toISOString(),
  }));
}

/** A message as the dev mailbox receives it (see devMailboxTransport). */
export interface ReceivedMail {
  messageId: string;
  kind: string;
  sender: string;
  recipient: string;
  subject: string;
  text: string;
  html: string;
}

/** The dev mailbox's SQL (dev_mailbox_message): what it receives, what it lists. */
export function devMailboxRepository(db: Kysely<ApiDatabase>) {
  return {
    /** Keeps a delivered message; a message delivered twice (same Message-ID) is kept once. */
    async receive(mail: ReceivedMail): Promise<void> {
      await db
        .insertInto('dev_mailbox_message')
        .values({
          message_id: mail.messageId,
          kind: mail.kind,
          sender: mail.sender,
          recipient: mail.recipient,
          subject: mail.subject,
          text_body: mail.text,
          html_body: mail.html,
        })
        .onConflict((oc) => oc.column('message_id').doNothing())
        .execute();
    },

    list: (filter?: { to?: string; limit?: number }) => listDevMailbox(db, filter),
  };
}

export type DevMailboxRepository = ReturnType<typeof devMailboxRepository>;
