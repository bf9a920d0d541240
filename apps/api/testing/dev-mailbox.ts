import type { DevMailboxEntry } from '../src/mail/routes/dev-mailbox.js';

export type MailboxMessage = DevMailboxEntry;

/** The dev mailbox's messages for one recipient, newest first: where a test server delivers mail. */
export async function inbox(baseUrl: string, to: string): Promise<MailboxMessage[]> {
  const response = await fetch(`${baseUrl}/dev/mailbox/messages?to=${encodeURIComponent(to)}`);
  if (response.status !== 200) throw new Error(`the dev mailbox answered ${response.status}`);
  return (await response.json()) as MailboxMessage[];
}
