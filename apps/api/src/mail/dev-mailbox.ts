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
